import type { BodyPart } from '@bulwark/domain';

/**
 * The body diagram's drawing: a person seen from the front and from the back on a 200 × 400 canvas.
 * From the front the person's right side is on the viewer's left; from the back it is on the right,
 * as injury forms draw it. Later shapes are drawn over earlier ones (the face over the head).
 */
export type Shape =
  | { kind: 'rect'; x: number; y: number; w: number; h: number; r?: number }
  | { kind: 'ellipse'; cx: number; cy: number; rx: number; ry: number };

export type Region = { part: BodyPart; shapes: Shape[] };

const rect = (x: number, y: number, w: number, h: number, r = 4): Shape => ({ kind: 'rect', x, y, w, h, r });
const ellipse = (cx: number, cy: number, rx: number, ry: number): Shape => ({ kind: 'ellipse', cx, cy, rx, ry });

/** The limbs of one side, drawn at the viewer's left (`sideX` mirrors them to the right). */
function limbs(side: 'left' | 'right', viewerLeft: boolean): Region[] {
  const x = (left: number, w: number) => (viewerLeft ? left : 200 - left - w);
  const cx = (c: number) => (viewerLeft ? c : 200 - c);
  return [
    { part: `${side}_shoulder`, shapes: [ellipse(cx(66), 90, 13, 12)] },
    { part: `${side}_upper_arm`, shapes: [rect(x(46, 17), 100, 17, 44)] },
    { part: `${side}_elbow`, shapes: [ellipse(cx(54), 150, 9, 8)] },
    { part: `${side}_forearm`, shapes: [rect(x(42, 16), 158, 16, 42)] },
    { part: `${side}_wrist`, shapes: [rect(x(41, 16), 201, 16, 8, 2)] },
    { part: `${side}_hand`, shapes: [rect(x(38, 20), 210, 20, 20)] },
    { part: `${side}_fingers`, shapes: [rect(x(38, 20), 231, 20, 14)] },
    { part: `${side}_hip`, shapes: [rect(x(74, 18), 176, 18, 26)] },
    { part: `${side}_thigh`, shapes: [rect(x(76, 22), 204, 22, 70)] },
    { part: `${side}_knee`, shapes: [ellipse(cx(87), 284, 11, 9)] },
    { part: `${side}_lower_leg`, shapes: [rect(x(78, 19), 294, 19, 62)] },
    { part: `${side}_ankle`, shapes: [rect(x(78, 19), 357, 19, 8, 2)] },
    { part: `${side}_foot`, shapes: [rect(x(74, 24), 366, 24, 14)] },
    { part: `${side}_toes`, shapes: [rect(x(74, 24), 381, 24, 9)] },
  ] as Region[];
}

export const FRONT: Region[] = [
  { part: 'head', shapes: [ellipse(100, 38, 24, 29)] },
  { part: 'face', shapes: [ellipse(100, 46, 17, 19)] },
  { part: 'eyes', shapes: [rect(86, 37, 28, 8, 3)] },
  { part: 'ears', shapes: [ellipse(74, 42, 5, 9), ellipse(126, 42, 5, 9)] },
  { part: 'neck', shapes: [rect(90, 66, 20, 14)] },
  { part: 'chest', shapes: [rect(80, 80, 40, 50)] },
  { part: 'abdomen', shapes: [rect(80, 131, 40, 44)] },
  { part: 'pelvis', shapes: [rect(93, 176, 14, 26)] },
  { part: 'internal_organs', shapes: [ellipse(100, 131, 9, 9)] },
  ...limbs('right', true),
  ...limbs('left', false),
];

export const BACK: Region[] = [
  { part: 'head', shapes: [ellipse(100, 38, 24, 29)] },
  { part: 'ears', shapes: [ellipse(74, 42, 5, 9), ellipse(126, 42, 5, 9)] },
  { part: 'neck', shapes: [rect(90, 66, 20, 14)] },
  { part: 'upper_back', shapes: [rect(80, 80, 40, 50)] },
  { part: 'lower_back', shapes: [rect(80, 131, 40, 44)] },
  ...limbs('left', true),
  ...limbs('right', false),
];
