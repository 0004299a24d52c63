import { defineMessages } from '../i18n/define.js';
import { permitsWebEn } from './web-i18n-en.js';
import { permitsWebEs } from './web-i18n-es.js';
import { permitsWebTr } from './web-i18n-tr.js';
import { permitsWebZh } from './web-i18n-zh.js';

/**
 * Texts only the permit screens show (namespace `permitsWeb`); the record's own words (statuses,
 * fields, validation, commands) are the module's (`permits`, ./i18n.ts).
 */
export const permitsWebMessages = defineMessages({ en: permitsWebEn, es: permitsWebEs, tr: permitsWebTr, zh: permitsWebZh });
