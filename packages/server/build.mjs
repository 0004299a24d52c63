// Compiles the server for production: src/main.ts (the server) and src/cli.ts (`npm run ehs`), each into
// one ES module in dist/ with a source map. @bulwark/domain (TypeScript sources) is compiled in; every
// other package stays in node_modules, imported at run time as it is under tsx. Files read at run time
// are found through src/platform/server-root.ts, so dist/ must stay inside packages/server.
//
//   node build.mjs [outdir]      (default dist; tests build into a folder of their own)
import { rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const outdir = path.resolve(import.meta.dirname, process.argv[2] ?? 'dist');
rmSync(outdir, { recursive: true, force: true });

/** Bare imports stay imports, except our own workspace packages, which ship TypeScript sources. */
const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@bulwark/') ? undefined : { path: args.path, external: true }));
  },
};

await build({
  absWorkingDir: import.meta.dirname,
  entryPoints: ['src/main.ts', 'src/cli.ts'],
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  sourcemap: true,
  // Stack traces name the files in src/, which are in the repository: the map need not carry them.
  sourcesContent: false,
  // Code shared by the two entry points goes in chunks rather than twice.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  plugins: [externalPackages],
  logLevel: 'warning',
});
