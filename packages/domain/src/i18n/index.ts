import { LANGUAGES, DEFAULT_LANGUAGE, type Language } from '../constants.js';
import type { Widen } from './define.js';
import { en } from './en.js';
import { es } from './es.js';
import { MODULE_MESSAGES } from './modules.js';
import { tr } from './tr.js';
import { zh } from './zh.js';

export { defineMessages, type ModuleMessages } from './define.js';

type ModuleTexts = { [M in keyof typeof MODULE_MESSAGES]: (typeof MODULE_MESSAGES)[M]['en'] };
/** The whole key set: the core catalogue plus every module's namespace. */
export type Messages = Widen<typeof en & ModuleTexts>;

function withModules(lang: Language, core: object): Messages {
  const modules = Object.fromEntries(Object.entries(MODULE_MESSAGES).map(([ns, m]) => [ns, m[lang]]));
  // Built from entries, so the compiler cannot see the shape; defineMessages typed each part.
  return { ...core, ...modules } as unknown as Messages;
}

const CORE = { en, es, tr, zh };
export const catalogs = Object.fromEntries(LANGUAGES.map((l) => [l, withModules(l, CORE[l])])) as Record<Language, Messages>;

export function pickLanguage(header: string | undefined | null): Language {
  if (!header) return DEFAULT_LANGUAGE;
  // Accept-Language (RFC 9110): the highest quality wins, q=0 means "not acceptable", ties keep list order.
  let best: { lang: Language; q: number } | null = null;
  for (const part of header.split(',')) {
    const [rawTag, ...params] = part.split(';');
    const tag = rawTag?.trim().toLowerCase().slice(0, 2);
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!tag || !(LANGUAGES as readonly string[]).includes(tag) || !(q > 0)) continue;
    if (!best || q > best.q) best = { lang: tag as Language, q };
  }
  return best?.lang ?? DEFAULT_LANGUAGE;
}

/** Looks up a dotted key (`errors.forbidden`) and fills `{{name}}` placeholders. Unknown keys come back as given. */
export function translate(lang: Language, key: string, vars: Record<string, string | number> = {}): string {
  const lookup = (k: string): unknown => {
    let node: unknown = catalogs[lang];
    for (const part of k.split('.')) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
    return node;
  };
  // A numeric `count` picks the language's plural form (`key_one`, `key_few`, `key_other`…), as i18next does on the web.
  let node: unknown = typeof vars['count'] === 'number' ? lookup(`${key}_${new Intl.PluralRules(lang).select(vars['count'])}`) : undefined;
  if (typeof node !== 'string' && typeof vars['count'] === 'number') node = lookup(`${key}_other`);
  if (typeof node !== 'string') node = lookup(key);
  if (typeof node !== 'string') return key;
  return node.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars[name] ?? `{{${name}}}`));
}

/** Every dotted key of a catalogue, for the completeness test. */
export function catalogKeys(messages: object, prefix = ''): string[] {
  return Object.entries(messages).flatMap(([k, v]) =>
    typeof v === 'string' ? [`${prefix}${k}`] : catalogKeys(v as object, `${prefix}${k}.`),
  );
}
