import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const API = 'http://localhost:3000';

export default defineConfig({
  plugins: [react()],
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
    rollupOptions: {
      // The domain package is pure (no module runs code on import), but its package.json cannot say so:
      // without this, every schema and libphonenumber's metadata ride along with the sign-in page.
      treeshake: { moduleSideEffects: (id: string) => !/[\\/]packages[\\/]domain[\\/]/.test(id) },
    },
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['test/setup.ts'],
  },
});
