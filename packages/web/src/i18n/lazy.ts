import type { Language, Messages } from '@bulwark/domain';
import i18next, { type BackendModule, type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { I18N_OPTIONS, isLanguage } from './setup.js';

/**
 * One chunk per language, made from the domain's catalogues at build time (vite.config.ts): a page
 * fetches the texts of its own language only, and a language added later weighs nothing until chosen.
 */
const CATALOGS: Record<Language, () => Promise<{ default: Messages }>> = {
  en: () => import('virtual:catalog/en'),
  es: () => import('virtual:catalog/es'),
  tr: () => import('virtual:catalog/tr'),
  zh: () => import('virtual:catalog/zh'),
};

/** i18next's loader over those chunks: changeLanguage() fetches a language before it switches to it. */
const catalogBackend: BackendModule = {
  type: 'backend',
  callbackApi: false,
  init: () => undefined,
  read: async (language: string) => {
    if (!isLanguage(language)) throw new Error(`no catalogue for ${language}`);
    return (await CATALOGS[language]()).default;
  },
};

/** The browser's i18next: the person's language is fetched before the first render (`ready`). */
export function createLazyI18n(language: Language): { i18n: I18n; ready: Promise<unknown> } {
  const instance = i18next.createInstance();
  const ready = instance
    .use(catalogBackend)
    .use(initReactI18next)
    .init({
      ...I18N_OPTIONS,
      lng: language,
      // Every catalogue has every key (a domain test checks), so no second language is fetched as a fallback.
      fallbackLng: false,
      load: 'currentOnly',
    });
  return { i18n: instance, ready };
}
