// What `zod` means in the web build (the alias in vite.config.ts): zod itself, told before any schema
// exists to parse without compiling code. Zod decides at each schema's construction whether to build its
// parser with `new Function`, and merely probing for that is reported as a Content Security Policy
// violation: the policy has no 'unsafe-eval'. The server keeps the compiled parsers.
import { config } from 'zod/v4';

config({ jitless: true });

export * from 'zod/v4';
export { z as default } from 'zod/v4';
