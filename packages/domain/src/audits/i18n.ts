import { defineMessages } from '../i18n/define.js';
import { auditsEn } from './i18n-en.js';
import { auditsEs } from './i18n-es.js';
import { auditsTr } from './i18n-tr.js';
import { auditsZh } from './i18n-zh.js';

/** Texts of the audits module in the four languages (namespace `audits`). */
export const auditsMessages = defineMessages({ en: auditsEn, es: auditsEs, tr: auditsTr, zh: auditsZh });
