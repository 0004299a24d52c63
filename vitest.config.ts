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

const server = {
  root: 'packages/server',
  environment: 'node' as const,
  include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  globalSetup: ['test/global-setup.ts'],
  testTimeout: 120_000,
  hookTimeout: 180_000,
};
// Server files that need modules of their own: they register stand-ins in the process-wide registries
// (an 'audit' action source, an 'audits' review subject) or count the statements prepared so far.
// Sharing one module graph, they would change what the files after them see.
const OWN_MODULES = [
  'test/actions-flow.test.ts',
  'test/review-workflows.test.ts',
  'test/review-workflows-removal.test.ts',
  'test/prepared-statements.test.ts',
];

// One runner for every layer. Each project is a layer of the test pyramid; `npm test` runs them all.
export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: one on the two-core machines CI runs on,
    // where a single file at a time leaves a core idle while its tests wait on PostgreSQL or a server
    // process. `npm test` (scripts/run-tests.mjs) runs the browser files as a chain of their own beside
    // the rest; the timeouts below leave room for a neighbour's load.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      // isolate: false runs a worker's files in one module graph, loaded once: a fresh graph per file cost
      // each server file about 2.5 s of imports, and each web file its jsdom (web: 283 s → 30 s).
      { test: { name: 'domain', root: 'packages/domain', environment: 'node', include: ['src/**/*.test.ts'], isolate: false } },
      { test: { ...server, name: 'server', exclude: OWN_MODULES, isolate: false } },
      { test: { ...server, name: 'server-isolated', include: OWN_MODULES } },
      'packages/web/vite.config.ts',
      {
        test: {
          name: 'e2e',
          root: 'e2e',
          environment: 'node',
          include: ['**/*.e2e.ts'],
          // One product start for the run, which every file's product copies (global-setup.ts).
          globalSetup: ['global-setup.ts'],
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
