/**
 * The texts of a language's catalogue that the signed-out first screen (the sign-in page, its layout,
 * the errors a sign-in can answer) needs: whole sections, or `section.key` for some keys of one. Each
 * language is built as two chunks (vite.config.ts): these first, the rest fetched once the person moves
 * past the sign-in page (lazy.ts).
 */
export const FIRST_TEXTS: readonly string[] = [
  'auth',
  'common',
  'errors',
  'languages',
  'pages',
  'shell',
  'validation',
  'screen.login',
  'sso.errors',
  'sso.failedTitle',
  'sso.signInWithSso',
];

/** The two chunks of a language's texts. */
export const CATALOG_PARTS = ['first', 'rest'] as const;
export type CatalogPart = (typeof CATALOG_PARTS)[number];

type Texts = Record<string, unknown>;
const isTexts = (value: unknown): value is Texts => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A catalogue cut in two along FIRST_TEXTS (build time). */
export function splitCatalog(catalog: Texts): Record<CatalogPart, Texts> {
  const first: Texts = {};
  const rest: Texts = {};
  for (const [section, texts] of Object.entries(catalog)) {
    const keys = new Set(FIRST_TEXTS.filter((t) => t.startsWith(`${section}.`)).map((t) => t.slice(section.length + 1)));
    if (FIRST_TEXTS.includes(section)) first[section] = texts;
    else if (keys.size && isTexts(texts)) {
      first[section] = Object.fromEntries(Object.entries(texts).filter(([key]) => keys.has(key)));
      rest[section] = Object.fromEntries(Object.entries(texts).filter(([key]) => !keys.has(key)));
    } else rest[section] = texts;
  }
  return { first, rest };
}

/** The parts put together again: a section cut in two gets both halves. */
export function joinParts(parts: Texts[]): Texts {
  const whole: Texts = {};
  for (const part of parts)
    for (const [section, texts] of Object.entries(part)) {
      const known = whole[section];
      whole[section] = isTexts(known) && isTexts(texts) ? { ...known, ...texts } : texts;
    }
  return whole;
}
