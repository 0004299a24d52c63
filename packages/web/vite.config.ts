import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { tsImport } from 'tsx/esm/api';
import type * as Domain from '@bulwark/domain';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { CATALOG_PARTS, splitCatalog } from './src/i18n/sections.js';

const API = 'http://localhost:3000';
const CATALOG = 'virtual:catalog/';

/**
 * `virtual:catalog/<language>/<part>`: one language's texts, read from @bulwark/domain's catalogues at
 * build time, so the browser fetches only the language it shows (src/i18n/lazy.ts). Part `first` holds
 * the texts the sign-in page needs (src/i18n/sections.ts), `rest` the others, fetched after it.
 */
function languageCatalogs(): Plugin {
  let domain: Promise<typeof Domain> | null = null;
  return {
    name: 'bulwark-language-catalogs',
    buildStart() {
      domain = null;
    },
    resolveId: (id) => (id.startsWith(CATALOG) ? `\0${id}` : undefined),
    async load(id) {
      if (!id.startsWith(`\0${CATALOG}`)) return undefined;
      const [language, part] = id.slice(CATALOG.length + 1).split('/');
      domain ??= tsImport('@bulwark/domain', import.meta.url);
      const { catalogs, LANGUAGES } = await domain;
      const known = LANGUAGES.find((l) => l === language);
      if (!known) throw new Error(`No catalogue for "${language}"; the languages are ${LANGUAGES.join(', ')}.`);
      const wanted = CATALOG_PARTS.find((p) => p === part);
      if (!wanted) throw new Error(`No catalogue part "${part}"; the parts are ${CATALOG_PARTS.join(', ')}.`);
      const texts = splitCatalog(catalogs[known])[wanted];
      return `export default JSON.parse(${JSON.stringify(JSON.stringify(texts))});`;
    },
  };
}

export default defineConfig({
  plugins: [react(), languageCatalogs()],
  // No eval under the Content Security Policy: every `import … from 'zod'` gets the jitless zod.
  resolve: { alias: [{ find: /^zod$/, replacement: fileURLToPath(new URL('./src/zod-without-eval.ts', import.meta.url)) }] },
  server: {
    proxy: {
      '/api': { target: API, changeOrigin: false },
      '/socket.io': { target: API, ws: true, changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Mantine is one big vendor module; splitting it per route gains nothing, so keep the warning honest.
    chunkSizeWarningLimit: 900,
    rolldownOptions: {
      output: {
        // What index.html loads before anything shows (its static imports) goes out as one file, and the
        // sign-in page with what it imports as another: a page fetching twenty small chunks also pays
        // twenty gzip streams that share no dictionary. Other screens import the pieces they share.
        codeSplitting: {
          groups: [
            { name: 'start', tags: ['$initial'], priority: 2 },
            // The sign-in page's forms and their imports (login-page.tsx stays the route's own chunk).
            { name: 'sign-in', test: /[\\/]features[\\/]auth[\\/](sign-in-form|find-organization-form)\.tsx$/, priority: 1 },
          ],
        },
      },
    },
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['test/setup.ts'],
    // One jsdom and one module graph for a worker's files (test/setup.ts cleans up between them): a
    // jsdom per file was most of this layer's time.
    isolate: false,
    // As the root config's: projects run together must agree on it (vitest refuses the run otherwise).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Vitest's 5 s is too short for a form driven keystroke by keystroke on a two-core machine that also
    // runs the browser files (seen: the observation form's action rows at 5.7 s).
    testTimeout: 20_000,
  },
});
