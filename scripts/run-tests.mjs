// Runs every test layer once with vitest and ends with one line `N passed, N failed`, so CI can tell
// a run that executed no test from a green one.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

const out = '.vitest/results.json';
mkdirSync('.vitest', { recursive: true });
rmSync(out, { force: true });
const args = ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`, ...process.argv.slice(2)];
const run = spawnSync('npx', args, { stdio: 'inherit' });

if (!existsSync(out)) {
  console.log('0 passed, 1 failed');
  console.error('The test runner wrote no results.');
  process.exit(1);
}
const results = JSON.parse(readFileSync(out, 'utf8'));
const passed = results.numPassedTests ?? 0;
// A file that failed without a failing test (an import error, a failed hook) counts as one failure.
const brokenFiles = (results.testResults ?? []).filter(
  (f) => f.status === 'failed' && (f.assertionResults ?? []).every((a) => a.status !== 'failed'),
).length;
const failed = (results.numFailedTests ?? 0) + brokenFiles;
console.log(`${passed} passed, ${failed} failed`);
process.exit(run.status === 0 && passed > 0 && failed === 0 ? 0 : 1);
