import type { Widen } from '../i18n/define.js';
import { siEn } from './i18n-en.js';

// TEMP until translated
export const siEs: Widen<typeof siEn> = siEn;
