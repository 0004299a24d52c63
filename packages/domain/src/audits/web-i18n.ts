import { defineMessages } from '../i18n/define.js';
import { auditsWebEn } from './web-i18n-en.js';
import { auditsWebEs } from './web-i18n-es.js';
import { auditsWebTr } from './web-i18n-tr.js';
import { auditsWebZh } from './web-i18n-zh.js';

/**
 * Texts only the audit screens show (namespace `auditsWeb`); the record's own words (statuses,
 * fields, validation, report parts) are the module's (`audits`, ./i18n.ts).
 */
export const auditsWebMessages = defineMessages({ en: auditsWebEn, es: auditsWebEs, tr: auditsWebTr, zh: auditsWebZh });
