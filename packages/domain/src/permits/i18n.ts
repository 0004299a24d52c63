import { defineMessages } from '../i18n/define.js';
import { permitsEn } from './i18n-en.js';
import { permitsEs } from './i18n-es.js';
import { permitsTr } from './i18n-tr.js';
import { permitsZh } from './i18n-zh.js';

/** Texts of the permits module in the four languages (namespace `permits`). */
export const permitsMessages = defineMessages({ en: permitsEn, es: permitsEs, tr: permitsTr, zh: permitsZh });
