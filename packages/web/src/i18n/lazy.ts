import type { Language, Messages } from '@bulwark/domain';
import i18next, { type BackendModule, type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { joinParts, type CatalogPart } from './sections.js';
import { I18N_OPTIONS, isLanguage } from './setup.js';

type Catalog = () => Promise<{ default: Partial<Messages> }>;

/**
 * Two chunks per language, made from the domain's catalogues at build time (vite.config.ts): a page
 * fetches the texts of its own language only, and a language added later weighs nothing until chosen.
 * The sign-in page needs the `first` sections only; the `rest` comes once someone moves past it.
 */
const CATALOGS: Record<Language, Record<CatalogPart, Catalog>> = {
  en: { first: () => import('virtual:catalog/en/first'), rest: () => import('virtual:catalog/en/rest') },
  es: { first: () => import('virtual:catalog/es/first'), rest: () => import('virtual:catalog/es/rest') },
  tr: { first: () => import('virtual:catalog/tr/first'), rest: () => import('virtual:catalog/tr/rest') },
  zh: { first: () => import('virtual:catalog/zh/first'), rest: () => import('virtual:catalog/zh/rest') },
};

export type LazyI18n = {
  i18n: I18n;
  /** Settles once the person's language has arrived (render after it). */
  ready: Promise<unknown>;
  /** Fetches every text of the language shown, and of each language chosen later; settles when they are in. */
  allTexts: () => Promise<void>;
};

/**
 * The browser's i18next: the person's language is fetched before the first render (`ready`). With
 * `whole` false (nobody signed in), only the sections of the sign-in page until `allTexts()` is called.
 */
export function createLazyI18n(language: Language, whole = true): LazyI18n {
  const instance = i18next.createInstance();
  let wantAll = whole;
  const complete = new Set<Language>();
  const rest = new Map<Language, Promise<void>>();

  /** i18next's loader over those chunks: changeLanguage() fetches a language before it switches to it. */
  const catalogBackend: BackendModule = {
    type: 'backend',
    callbackApi: false,
    init: () => undefined,
    read: async (lng: string) => {
      if (!isLanguage(lng)) throw new Error(`no catalogue for ${lng}`);
      const all = wantAll;
      const parts = await Promise.all((all ? [CATALOGS[lng].first, CATALOGS[lng].rest] : [CATALOGS[lng].first]).map((load) => load()));
      if (all) complete.add(lng);
      return joinParts(parts.map((part) => part.default)) as Messages;
    },
  };

  // The sections a language read with `first` only still lacks, added to it (components re-render on 'added').
  const addRest = (lng: Language): Promise<void> => {
    if (complete.has(lng)) return Promise.resolve();
    let loading = rest.get(lng);
    if (!loading) {
      loading = CATALOGS[lng].rest().then(({ default: texts }) => {
        instance.addResourceBundle(lng, 'translation', texts, true, false);
        complete.add(lng);
      });
      // A failed fetch may be tried again by the next navigation.
      loading.catch(() => rest.delete(lng));
      rest.set(lng, loading);
    }
    return loading;
  };

  const ready = instance
    .use(catalogBackend)
    .use(initReactI18next)
    .init({
      ...I18N_OPTIONS,
      lng: language,
      // Every catalogue has every key (a domain test checks), so no second language is fetched as a fallback.
      fallbackLng: false,
      load: 'currentOnly',
      // The rest of a language arrives after the first render: the texts shown then must update.
      react: { bindI18nStore: 'added' },
    });

  // A language chosen while its `first` part only was being read still gets the rest.
  instance.on('languageChanged', (lng) => {
    if (wantAll && isLanguage(lng)) void addRest(lng).catch(() => undefined);
  });

  const allTexts = async (): Promise<void> => {
    wantAll = true;
    await ready;
    const lng = instance.language;
    if (isLanguage(lng)) await addRest(lng);
  };
  return { i18n: instance, ready, allTexts };
}
