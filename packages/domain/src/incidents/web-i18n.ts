import { defineMessages } from '../i18n/define.js';
import { incidentsWebEn } from './web-i18n-en.js';
import { incidentsWebEs } from './web-i18n-es.js';
import { incidentsWebTr } from './web-i18n-tr.js';
import { incidentsWebZh } from './web-i18n-zh.js';

/** Texts only the incident screens show (namespace `incidentsWeb`), in the four languages. */
export const incidentsWebMessages = defineMessages({ en: incidentsWebEn, es: incidentsWebEs, tr: incidentsWebTr, zh: incidentsWebZh });
