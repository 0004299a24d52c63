// Builds what changed: the web app (Vite, packages/web/dist) and the server (esbuild, packages/server/dist).
// Each build leaves a stamp in its dist folder, the hash of the files it was built from; a build whose
// sources hash the same as its stamp is skipped. So `npm start` after a clone (or a pull) builds once,
// and restarts in seconds after that. `npm test` runs it too.
//
//   node scripts/build.mjs [web] [server] [--force]      (no name: both)
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const STAMP = '.build-stamp';

// The inputs are what the build reads; tests are left out, so changing one rebuilds nothing.
const TARGETS = {
  web: {
    workspace: '@bulwark/web',
    dist: 'packages/web/dist',
    output: 'index.html',
    inputs: [
      'packages/web/src',
      'packages/web/index.html',
      'packages/web/vite.config.ts',
      'packages/web/package.json',
      'packages/web/tsconfig.json',
      'packages/domain/src',
      'packages/domain/package.json',
      'package-lock.json',
      'tsconfig.base.json',
    ],
  },
  server: {
    workspace: '@bulwark/server',
    dist: 'packages/server/dist',
    output: 'main.js',
    inputs: [
      'packages/server/src',
      'packages/server/build.mjs',
      'packages/server/package.json',
      'packages/server/tsconfig.json',
      'packages/domain/src',
      'packages/domain/package.json',
      'package-lock.json',
      'tsconfig.base.json',
    ],
  },
};

const args = process.argv.slice(2);
const force = args.includes('--force');
const names = args.filter((a) => a !== '--force');
for (const name of names) {
  if (!(name in TARGETS)) {
    console.error(`build: no target "${name}"; the targets are ${Object.keys(TARGETS).join(', ')}`);
    process.exit(2);
  }
}

const isTest = (file) => /\.test\.tsx?$/.test(file);

function* files(rel) {
  const full = path.join(ROOT, rel);
  if (!statSync(full).isDirectory()) {
    yield rel;
    return;
  }
  for (const entry of readdirSync(full, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.relative(ROOT, path.join(entry.parentPath, entry.name));
    if (!isTest(file)) yield file;
  }
}

/** One hash over the inputs' names and contents. */
function hashOf(inputs) {
  const hash = createHash('sha256');
  for (const file of inputs.flatMap((rel) => [...files(rel)]).sort()) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(path.join(ROOT, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

for (const name of names.length > 0 ? names : Object.keys(TARGETS)) {
  const target = TARGETS[name];
  const stampFile = path.join(ROOT, target.dist, STAMP);
  const hash = hashOf(target.inputs);
  const built = existsSync(path.join(ROOT, target.dist, target.output)) && existsSync(stampFile);
  if (!force && built && readFileSync(stampFile, 'utf8').trim() === hash) {
    console.log(`[build] ${name}: up to date (${target.dist})`);
    continue;
  }
  console.log(`[build] ${name}: ${built ? 'sources changed, ' : ''}building ${target.dist}…`);
  const started = Date.now();
  const run = spawnSync('npm', ['run', 'build', '-w', target.workspace], { cwd: ROOT, stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
  writeFileSync(stampFile, `${hash}\n`);
  console.log(`[build] ${name}: built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
