import type { Messages } from './en.js';
import { en } from './en.js';

// Placeholder until translated: must be replaced by a real zh catalogue.
export const zh: Messages = { ...en };
