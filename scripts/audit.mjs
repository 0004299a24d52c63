// `npm run audit:prod`: the production dependencies' known advisories, from `npm audit --omit=dev`.
//   exit 0  the registry answered and no advisory is high or critical (lower ones are listed)
//   exit 1  at least one high or critical advisory: each is listed
//   exit 3  nothing was checked: the audit endpoint could not be reached or answered something else
// AUDIT_REPORT=<file> reads a saved `npm audit --json` answer instead of asking the registry (tests).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const BLOCKING = new Set(['high', 'critical']);
const EXIT = { clean: 0, blocked: 1, unchecked: 3 };

function ask() {
  if (process.env.AUDIT_REPORT) return { text: readFileSync(process.env.AUDIT_REPORT, 'utf8'), stderr: '' };
  // npm exits 1 both when it found advisories and when the endpoint failed: only the JSON tells which.
  // Bounded: a registry that does not answer must end in "nothing was checked", not a hung run.
  const run = spawnSync('npm', ['audit', '--omit=dev', '--json', '--fetch-timeout=30000', '--fetch-retries=1'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 120_000,
  });
  if (run.error) return { text: '', stderr: run.error.message };
  return { text: run.stdout, stderr: run.stderr };
}

function unchecked(reason) {
  console.error(`npm audit: NOTHING WAS CHECKED. ${reason}`);
  console.error('The production dependencies are neither clean nor dirty as far as this run knows.');
  process.exit(EXIT.unchecked);
}

const { text, stderr } = ask();
let report;
try {
  report = JSON.parse(text);
} catch {
  unchecked(`npm audit did not answer with JSON.${stderr ? `\n${stderr.trim()}` : ''}`);
}
if (!report || typeof report !== 'object' || !report.vulnerabilities || !report.metadata?.vulnerabilities) {
  const status = report?.statusCode ? ` (HTTP ${report.statusCode})` : '';
  const message = report?.message ?? report?.error?.summary ?? 'no vulnerabilities section in the answer';
  unchecked(`The registry's audit endpoint could not be used${status}: ${message}`);
}

const counts = report.metadata.vulnerabilities;
const dependencies = report.metadata.dependencies?.prod ?? report.metadata.dependencies?.total;
const entries = Object.values(report.vulnerabilities);
const line = (v) => {
  const advisories = (v.via ?? []).filter((a) => typeof a === 'object').map((a) => `${a.title ?? 'advisory'}${a.url ? ` <${a.url}>` : ''}`);
  const through = (v.via ?? []).filter((a) => typeof a === 'string');
  const fix =
    v.fixAvailable === true
      ? 'fix: npm audit fix'
      : v.fixAvailable
        ? `fix: ${v.fixAvailable.name}@${v.fixAvailable.version}`
        : 'no fix yet';
  return `  ${v.severity.padEnd(8)} ${v.name} ${v.range ?? ''} — ${[...advisories, ...through.map((n) => `through ${n}`)].join('; ')} (${fix})`;
};
const blocking = entries.filter((v) => BLOCKING.has(v.severity));
const other = entries.filter((v) => !BLOCKING.has(v.severity));

console.log(
  `npm audit --omit=dev: ${dependencies ?? '?'} production dependencies checked; ` +
    `critical ${counts.critical ?? 0}, high ${counts.high ?? 0}, moderate ${counts.moderate ?? 0}, low ${counts.low ?? 0}, info ${counts.info ?? 0}.`,
);
if (other.length) {
  console.log('Below the bar (listed, not failing):');
  for (const v of other) console.log(line(v));
}
if (blocking.length) {
  console.error('High or critical advisories in production dependencies:');
  for (const v of blocking) console.error(line(v));
  process.exit(EXIT.blocked);
}
console.log('No high or critical advisory.');
process.exit(EXIT.clean);
