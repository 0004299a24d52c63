/** The same nested shape with every text widened to `string`: what another language must provide. */
export type Widen<T> = { [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };

/** A module's own texts in the four languages; the type makes es, tr and zh match en key for key. */
export type ModuleMessages<T> = { en: T; es: Widen<T>; tr: Widen<T>; zh: Widen<T> };

export function defineMessages<T extends object>(messages: ModuleMessages<T>): ModuleMessages<T> {
  return messages;
}
