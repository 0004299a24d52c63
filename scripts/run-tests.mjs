// Runs every test layer once with vitest and ends with one line `N passed, N failed`, so CI can tell
// a run that executed no test from a green one.
//
// With no arguments the layers run as two chains at once, each one file at a time: the browser files
// (each starts the product, its PostgreSQL and Chromium) and the rest (domain, web, server). On the
// two-core machines CI runs on, one file at a time in all left a core idle for half the run, while two
// browser files at once overload it (each needs about a core of its own) and time out. Arguments are
// passed to one vitest run instead (e.g. `--project server`), except `--database-layers`, which runs
// only the layers that read a database (server, browser): what a second pass on another PostgreSQL
// can find (.ci/run), since the domain and web tests never touch one.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

mkdirSync('.vitest', { recursive: true });
const databaseOnly = process.argv.includes('--database-layers');
const extra = process.argv.slice(2).filter((a) => a !== '--database-layers');
const rest = databaseOnly ? ['--project', 'server*'] : ['--project', 'domain', '--project', 'web', '--project', 'server*'];
const chains = extra.length
  ? [{ name: 'results', args: extra }]
  : [
      { name: 'browser', args: ['--project', 'e2e'] },
      // One worker: with the browser chain that is two files at a time on two cores.
      { name: 'rest', args: [...rest, '--maxWorkers=1'] },
    ];

function runChain({ name, args }) {
  const out = `.vitest/${name}.json`;
  rmSync(out, { force: true });
  const all = ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`, ...args];
  return new Promise((resolve) => {
    const child = spawn('npx', all, { stdio: 'inherit' });
    child.on('exit', (code) => resolve({ name, out, code: code ?? 1 }));
  });
}

const started = Date.now();
const runs = await Promise.all(chains.map(runChain));
let passed = 0;
let failed = 0;
for (const run of runs) {
  if (!existsSync(run.out)) {
    console.error(`The ${run.name} test run wrote no results.`);
    failed += 1;
    continue;
  }
  const results = JSON.parse(readFileSync(run.out, 'utf8'));
  passed += results.numPassedTests ?? 0;
  // A file that failed without a failing test (an import error, a failed hook) counts as one failure.
  const brokenFiles = (results.testResults ?? []).filter(
    (f) => f.status === 'failed' && (f.assertionResults ?? []).every((a) => a.status !== 'failed'),
  ).length;
  failed += (results.numFailedTests ?? 0) + brokenFiles;
  if (run.code !== 0 && (results.numFailedTests ?? 0) + brokenFiles === 0) failed += 1;
  console.log(`${run.name}: ${results.numPassedTests ?? 0} passed, ${(results.numFailedTests ?? 0) + brokenFiles} failed`);
}
console.log(`test wall time: ${Math.round((Date.now() - started) / 1000)} s`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(runs.every((r) => r.code === 0) && passed > 0 && failed === 0 ? 0 : 1);
