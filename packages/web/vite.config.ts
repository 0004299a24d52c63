import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { tsImport } from 'tsx/esm/api';
import type * as Domain from '@bulwark/domain';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

const API = 'http://localhost:3000';
const CATALOG = 'virtual:catalog/';

/**
 * `virtual:catalog/<language>`: one language's texts, read from @bulwark/domain's catalogues at build
 * time, so the browser fetches only the language it shows (src/i18n/lazy.ts).
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
      const language = id.slice(CATALOG.length + 1);
      domain ??= tsImport('@bulwark/domain', import.meta.url);
      const { catalogs, LANGUAGES } = await domain;
      const known = LANGUAGES.find((l) => l === language);
      if (!known) throw new Error(`No catalogue for "${language}"; the languages are ${LANGUAGES.join(', ')}.`);
      return `export default JSON.parse(${JSON.stringify(JSON.stringify(catalogs[known]))});`;
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
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['test/setup.ts'],
  },
});
