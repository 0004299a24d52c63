/**
 * `npm run bench`: seeds the bench database when it lacks the asked size, runs every benchmark in its
 * own process (one at a time, so they do not share the two cores), prints the goals, and writes the
 * figures into the README's performance section. Not part of CI: timings gate nothing.
 *
 *   npm run bench                       # everything, on 1000 organisations and 1,000,000 observations
 *   npm run bench -- --only http,push   # some benchmarks
 *   npm run bench -- --observations 100000 --orgs 100
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { RESULTS_DIR, verdict, type BenchResult } from './lib/report.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const BENCHES = ['seed', 'http', 'export', 'start', 'push', 'bundle'] as const;

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    orgs: { type: 'string', default: '1000' },
    observations: { type: 'string', default: '1000000' },
    'no-readme': { type: 'boolean', default: false },
  },
});
const only = values.only ? values.only.split(',').map((s) => s.trim()) : [...BENCHES];
const unknown = only.filter((b) => !(BENCHES as readonly string[]).includes(b));
if (unknown.length) {
  console.error(`Unknown benchmark: ${unknown.join(', ')}. Known: ${BENCHES.join(', ')}.`);
  process.exit(2);
}

const failed: string[] = [];
for (const bench of BENCHES.filter((b) => only.includes(b))) {
  console.log(`\n== ${bench} ==`);
  // Push is measured on one node and again on two nodes joined through Redis (issue 13).
  const args =
    bench === 'seed' ? ['--orgs', values.orgs, '--observations', values.observations, '--if-needed'] : bench === 'push' ? ['--redis'] : [];
  const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench', `${bench}.ts`), ...args], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (run.status !== 0) failed.push(bench);
}

const results = BENCHES.filter((b) => b !== 'seed')
  .map((b) => path.join(RESULTS_DIR, `${b}.json`))
  .filter((f) => existsSync(f))
  .map((f) => JSON.parse(readFileSync(f, 'utf8')) as BenchResult);

console.log('\n== goals ==');
for (const r of results) for (const g of r.goals) console.log(`  ${r.bench}: ${g.label}: ${verdict(g)}`);
if (failed.length) console.log(`\nThese benchmarks did not finish: ${failed.join(', ')}.`);

if (!values['no-readme'] && results.length) updateReadme(results);
process.exit(failed.length ? 1 : 0);

/** Rewrites the README's performance section between its markers with the last figures. */
function updateReadme(all: BenchResult[]) {
  const file = path.join(ROOT, 'README.md');
  const readme = readFileSync(file, 'utf8');
  const start = '<!-- bench:start -->';
  const end = '<!-- bench:end -->';
  const from = readme.indexOf(start);
  const to = readme.indexOf(end);
  if (from < 0 || to < from) {
    console.log('README.md has no bench markers; its performance section was left alone.');
    return;
  }
  const lines: string[] = [];
  const machines = [...new Set(all.map((r) => r.machine))];
  lines.push(`Machine: ${machines.join('; ')}.`, '');
  for (const r of all) {
    lines.push(`**${r.bench}** (run ${r.at.slice(0, 16).replace('T', ' ')} UTC)`, '');
    lines.push('| figure | value |', '|---|---|');
    for (const f of r.figures) lines.push(`| ${f.label} | ${Number.isInteger(f.value) ? f.value : f.value.toFixed(2)} ${f.unit} |`);
    lines.push('');
    for (const g of r.goals) lines.push(`- Goal: ${g.label}: ${verdict(g)}`);
    for (const n of r.notes) lines.push(`- ${n}`);
    lines.push('');
  }
  writeFileSync(file, `${readme.slice(0, from + start.length)}\n${lines.join('\n')}\n${readme.slice(to)}`);
  console.log('README.md: performance section updated.');
}
