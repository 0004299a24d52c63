import { defineMessages } from '../i18n/define.js';
import { incidentsEn } from './i18n-en.js';
import { incidentsEs } from './i18n-es.js';
import { incidentsTr } from './i18n-tr.js';
import { incidentsZh } from './i18n-zh.js';

/** Texts of the incidents module in the four languages (namespace `incidents`). */
export const incidentsMessages = defineMessages({ en: incidentsEn, es: incidentsEs, tr: incidentsTr, zh: incidentsZh });
