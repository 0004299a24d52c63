/**
 * Characters that change how a name looks without being seen: C0 and C1 controls, the bidirectional
 * controls (a right-to-left override turns `photo\u202Egnp.exe` into what reads as `photoexe.png`),
 * zero-width characters, the line and paragraph separators, the soft hyphen and the byte-order mark.
 */
export const INVISIBLE_CHARACTERS =
  // eslint-disable-next-line no-control-regex -- matching control characters is this pattern's purpose
  /[\u0000-\u001F\u007F-\u009F\u00AD\u061C\u115F\u1160\u180E\u200B-\u200F\u2028-\u202E\u2060-\u206F\u3164\uFEFF\uFFA0\uFFF9-\uFFFB]/gu;

/** The text without those characters: what a stored file's name may hold, and what is served. */
export function stripInvisible(text: string): string {
  return text.replace(INVISIBLE_CHARACTERS, '');
}
