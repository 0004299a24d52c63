import type { Messages } from './en.js';
import { en } from './en.js';

// Placeholder until translated: must be replaced by a real es catalogue.
export const es: Messages = { ...en };
