import type { BoardPermit } from '@bulwark/domain';

/**
 * The board's clock: the server says, when it answered, how long each permit has left; the screen
 * counts down from there every second without asking again.
 */

/** Seconds left now, `elapsed` seconds after the answer. */
export function secondsNow(answered: number, elapsed: number): number {
  return Math.round(answered - elapsed);
}

/** '2:05:09', '5:09' (under an hour), always with the sign left to the caller. */
export function clock(seconds: number): string {
  const s = Math.abs(Math.trunc(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(sec)}` : `${m}:${pad(sec)}`;
}

export type BoardPhase = 'upcoming' | 'running' | 'ending' | 'ended';

/** Where a permit stands on the board: not started, running, in its last half hour, or past its end. */
export function boardPhase(p: Pick<BoardPermit, 'starts_in_seconds' | 'time_left_seconds'>, elapsed: number): BoardPhase {
  if (secondsNow(p.starts_in_seconds, elapsed) > 0) return 'upcoming';
  const left = secondsNow(p.time_left_seconds, elapsed);
  if (left <= 0) return 'ended';
  return left <= 30 * 60 ? 'ending' : 'running';
}

export const PHASE_COLOR: Record<BoardPhase, string> = { upcoming: 'gray', running: 'teal', ending: 'orange', ended: 'red' };
