import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Vitest 5's reporter calls Map.groupBy, which Node 20 lacks (it arrived in Node 21): without this the
// run crashes while printing failures. Remove once the machines run Node 22.
if (!('groupBy' in Map)) {
  Object.defineProperty(Map, 'groupBy', {
    value<K, V>(items: Iterable<V>, key: (item: V, index: number) => K): Map<K, V[]> {
      const out = new Map<K, V[]>();
      let i = 0;
      for (const item of items) {
        const k = key(item, i++);
        const list = out.get(k);
        if (list) list.push(item);
        else out.set(k, [item]);
      }
      return out;
    },
  });
}

// One runner for every layer. Each project is a layer of the test pyramid; `npm test` runs them all.
export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: one on the two-core machines CI runs on,
    // where a single file at a time leaves a core idle while its tests wait on PostgreSQL or a server
    // process. `npm test` (scripts/run-tests.mjs) runs the browser files as a chain of their own beside
    // the rest; the timeouts below leave room for a neighbour's load.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      { test: { name: 'domain', root: 'packages/domain', environment: 'node', include: ['src/**/*.test.ts'] } },
      {
        test: {
          name: 'server',
          root: 'packages/server',
          environment: 'node',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          globalSetup: ['test/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
      'packages/web/vite.config.ts',
      {
        test: {
          name: 'e2e',
          root: 'e2e',
          environment: 'node',
          include: ['**/*.e2e.ts'],
          testTimeout: 180_000,
          hookTimeout: 240_000,
          // Each file starts the product, its PostgreSQL and Chromium: two at once overload two cores.
          fileParallelism: false,
          // expect.poll gives up after 1 s by default: a navigation on a loaded two-core machine can take longer.
          expect: { poll: { timeout: 15_000 } },
        },
      },
    ],
  },
});
