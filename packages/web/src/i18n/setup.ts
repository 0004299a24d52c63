import { catalogs, DEFAULT_LANGUAGE, LANGUAGES, type Language } from '@bulwark/domain';
import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { KeyValueStorage } from '../api/session-store.js';

/** The person's language choice; it outlives sign-out on purpose. */
export const LANGUAGE_KEY = 'bulwark.language';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

export function storedLanguage(storage: KeyValueStorage): Language {
  try {
    const value = storage.getItem(LANGUAGE_KEY);
    return isLanguage(value) ? value : DEFAULT_LANGUAGE;
  } catch {
    return DEFAULT_LANGUAGE;
  }
}

/** What every i18next instance of the app shares. */
export const I18N_OPTIONS = {
  supportedLngs: [...LANGUAGES],
  interpolation: { escapeValue: false }, // React escapes what it renders.
  returnNull: false,
};

/**
 * An i18next instance with all four catalogues in it, ready at once: for tests and tools. The browser
 * fetches only the person's language (lazy.ts), which keeps the sign-in page light.
 */
export function createI18n(language: Language): I18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    ...I18N_OPTIONS,
    resources: Object.fromEntries(LANGUAGES.map((lang) => [lang, { translation: catalogs[lang] }])),
    lng: language,
    fallbackLng: DEFAULT_LANGUAGE,
    initAsync: false,
  });
  return instance;
}

export function currentLanguage(i18n: I18n): Language {
  return isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
}
