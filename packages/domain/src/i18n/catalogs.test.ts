import { describe, expect, it } from 'vitest';
import { SCREENS } from '../access/routes.js';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '../constants.js';
import { ERROR_CODES } from '../errors.js';
import { catalogKeys, catalogs, pickLanguage, translate } from './index.js';

/** The string at a dotted key, or undefined. */
function valueAt(messages: object, key: string): string | undefined {
  let node: unknown = messages;
  for (const part of key.split('.')) {
    node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
  }
  return typeof node === 'string' ? node : undefined;
}

const placeholders = (text: string): string[] => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1] ?? '').sort();

const enKeys = catalogKeys(catalogs.en);
const OTHERS = LANGUAGES.filter((l) => l !== 'en');

describe('catalogues (spec 000 §1: en, es, tr, zh; default en)', () => {
  it('has exactly the four languages, default en', () => {
    expect([...LANGUAGES].sort()).toEqual(['en', 'es', 'tr', 'zh']);
    expect(DEFAULT_LANGUAGE).toBe('en');
    expect(Object.keys(catalogs).sort()).toEqual(['en', 'es', 'tr', 'zh']);
  });

  it('en has keys', () => {
    expect(enKeys.length).toBeGreaterThan(50);
  });

  it.each(OTHERS)('%s has exactly the key set of en', (lang) => {
    expect(catalogKeys(catalogs[lang]).sort()).toEqual([...enKeys].sort());
  });

  it.each(LANGUAGES)('%s has no empty or blank texts', (lang) => {
    const blank = catalogKeys(catalogs[lang]).filter((k) => (valueAt(catalogs[lang], k) ?? '').trim() === '');
    expect(blank).toEqual([]);
  });

  it.each(OTHERS)('%s keeps every {{placeholder}} of en in the same key', (lang) => {
    const missing: string[] = [];
    for (const key of enKeys) {
      const wanted = placeholders(valueAt(catalogs.en, key) ?? '');
      const have = new Set(placeholders(valueAt(catalogs[lang], key) ?? ''));
      for (const name of wanted) if (!have.has(name)) missing.push(`${key}: {{${name}}}`);
    }
    expect(missing).toEqual([]);
  });

  it.each(OTHERS)('%s introduces no placeholder that en does not have', (lang) => {
    const extra: string[] = [];
    for (const key of enKeys) {
      const wanted = new Set(placeholders(valueAt(catalogs.en, key) ?? ''));
      for (const name of placeholders(valueAt(catalogs[lang], key) ?? '')) if (!wanted.has(name)) extra.push(`${key}: {{${name}}}`);
    }
    expect(extra).toEqual([]);
  });

  // Fails until the translations land: es/tr/zh start as copies of en.
  it.each(OTHERS)('%s is translated: at least 90 percent of its texts differ from en', (lang) => {
    const same = enKeys.filter((k) => valueAt(catalogs[lang], k) === valueAt(catalogs.en, k));
    const differing = (enKeys.length - same.length) / enKeys.length;
    expect(differing, `${same.length} of ${enKeys.length} texts equal en, e.g. ${same.slice(0, 5).join(', ')}`).toBeGreaterThanOrEqual(0.9);
  });

  it('every route screen has a screen.<id> title in en', () => {
    const missing = SCREENS.filter((id) => valueAt(catalogs.en, `screen.${id}`) === undefined);
    expect(missing).toEqual([]);
    expect(SCREENS.length).toBeGreaterThan(50);
  });

  it('every error code has an errors.<code> text in en', () => {
    const missing = ERROR_CODES.filter((code) => valueAt(catalogs.en, `errors.${code}`) === undefined);
    expect(missing).toEqual([]);
  });

  it('the spec fallback text is "Something went wrong." (spec 000 §8)', () => {
    expect(translate('en', 'errors.internal')).toBe('Something went wrong.');
    expect(translate('en', 'errors.somethingWentWrong')).toBe('Something went wrong.');
  });
});

describe('translate()', () => {
  it('looks up a dotted key', () => {
    expect(translate('en', 'errors.incorrect_password')).toBe('Incorrect password.');
    expect(translate('en', 'validation.password.tooShort')).toBe(valueAt(catalogs.en, 'validation.password.tooShort'));
  });

  it('fills placeholders', () => {
    expect(translate('en', 'common.signedInAs', { email: 'ann@acme.test' })).toBe('Signed in as ann@acme.test');
    expect(translate('en', 'auth.signInTitle', { organization: 'Acme' })).toBe('Sign in to Acme');
  });

  it('fills every occurrence and several names, numbers included', () => {
    const text = translate('en', 'mail.passwordResetBody', { product: 'Bulwark EHS', organization: 'Acme', link: 'https://x/y' });
    expect(text).not.toMatch(/\{\{/);
    expect(text).toContain('Bulwark EHS');
    expect(text).toContain('Acme');
    expect(text).toContain('https://x/y');
    expect(translate('en', 'pages.moduleTitle', { screen: 42 })).toBe('42');
  });

  it('leaves a placeholder without a value visible', () => {
    expect(translate('en', 'common.signedInAs')).toBe('Signed in as {{email}}');
  });

  it('returns an unknown key, or a key naming a group, as given', () => {
    expect(translate('en', 'no.such.key')).toBe('no.such.key');
    expect(translate('en', 'errors')).toBe('errors');
    expect(translate('en', 'errors.forbidden.more')).toBe('errors.forbidden.more');
  });

  it.each(LANGUAGES)("%s: returns that catalogue's text", (lang: Language) => {
    expect(translate(lang, 'screen.dashboard')).toBe(valueAt(catalogs[lang], 'screen.dashboard'));
  });
});

describe('pickLanguage(): Accept-Language', () => {
  it.each([
    [undefined, 'en'],
    [null, 'en'],
    ['', 'en'],
    ['*', 'en'],
    ['fr', 'en'],
    ['fr-FR,de;q=0.8', 'en'],
    ['es', 'es'],
    ['es-ES,es;q=0.9,en;q=0.8', 'es'],
    ['tr-TR', 'tr'],
    ['zh-CN,zh;q=0.9', 'zh'],
    ['zh-Hant-TW', 'zh'],
    ['EN-us', 'en'],
    ['fr-FR, tr;q=0.8, en;q=0.5', 'tr'],
    ['de-DE,  ZH ;q=0.7', 'zh'],
  ] as const)('%j -> %s', (header, lang) => {
    expect(pickLanguage(header)).toBe(lang);
  });

  it('honours quality weights rather than list order (RFC 9110 §12.5.4)', () => {
    expect(pickLanguage('en;q=0.2, tr;q=0.9')).toBe('tr');
    expect(pickLanguage('es;q=0, zh;q=0.5')).toBe('zh');
  });
});
