import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import path from 'node:path';

/** A figure a benchmark measured, printed as it goes and kept for the README's performance section. */
export type Figure = { label: string; value: number; unit: string };

/** A goal: `value` must stay at or under `limit`, or reach at least `limit` when `atLeast` (a throughput). */
export type Goal = { label: string; value: number; limit: number; unit: string; atLeast?: boolean };

export type BenchResult = { bench: string; at: string; machine: string; notes: string[]; figures: Figure[]; goals: Goal[] };

export const RESULTS_DIR = path.resolve(import.meta.dirname, '../results');

/** The machine the figures came from, in one line. */
export function machine(): string {
  const cpu = cpus();
  return `${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${process.platform}`;
}

function round(n: number): number {
  return Math.abs(n) >= 100 ? Math.round(n) : Math.round(n * 100) / 100;
}

/** "met" or "MISSED by …", the words the output and the README use. */
export function verdict(g: Goal): string {
  if (g.atLeast) {
    if (g.value >= g.limit) return `met (${round(g.value)} ${g.unit} ≥ ${round(g.limit)} ${g.unit})`;
    const under = g.limit - g.value;
    return `MISSED by ${round(under)} ${g.unit} (${round((under / g.limit) * 100)}% under: ${round(g.value)} ${g.unit} against ${round(g.limit)} ${g.unit})`;
  }
  if (g.value <= g.limit) return `met (${round(g.value)} ${g.unit} ≤ ${round(g.limit)} ${g.unit})`;
  const over = g.value - g.limit;
  return `MISSED by ${round(over)} ${g.unit} (${round((over / g.limit) * 100)}% over: ${round(g.value)} ${g.unit} against ${round(g.limit)} ${g.unit})`;
}

/** Collects one benchmark's figures and goals, printing each as it arrives, and saves them at the end. */
export function recorder(bench: string) {
  const result: BenchResult = { bench, at: new Date().toISOString(), machine: machine(), notes: [], figures: [], goals: [] };
  return {
    figure(label: string, value: number, unit: string) {
      result.figures.push({ label, value, unit });
      console.log(`  ${label}: ${round(value)} ${unit}`);
    },
    goal(label: string, value: number, limit: number, unit: string, atLeast = false) {
      const g: Goal = atLeast ? { label, value, limit, unit, atLeast } : { label, value, limit, unit };
      result.goals.push(g);
      console.log(`  GOAL ${label}: ${verdict(g)}`);
    },
    note(text: string) {
      result.notes.push(text);
      console.log(`  note: ${text}`);
    },
    save(): BenchResult {
      mkdirSync(RESULTS_DIR, { recursive: true });
      writeFileSync(path.join(RESULTS_DIR, `${bench}.json`), `${JSON.stringify(result, null, 2)}\n`);
      return result;
    },
  };
}

export type Recorder = ReturnType<typeof recorder>;
