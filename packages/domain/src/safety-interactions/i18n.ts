import { defineMessages } from '../i18n/define.js';
import { siEn } from './i18n-en.js';
import { siEs } from './i18n-es.js';
import { siTr } from './i18n-tr.js';
import { siZh } from './i18n-zh.js';

/** Texts of the safety interactions module in the four languages (namespace `safetyInteractions`). */
export const safetyInteractionsMessages = defineMessages({ en: siEn, es: siEs, tr: siTr, zh: siZh });
