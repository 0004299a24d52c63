import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * No file of the web app reaches itself through its static imports (type imports included: a type
 * cycle is a layering mistake too, e.g. a feature importing a type from the shell that imports the
 * feature). Lazy `import()` of pages is how the shell reaches features and does not count.
 */

const ROOT = path.dirname(new URL(import.meta.url).pathname);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

/** The relative modules a file imports statically (`import … from './x.js'`, `export … from`). */
export function staticImports(file: string, text: string): string[] {
  const out: string[] = [];
  const pattern = /^\s*(?:import|export)\s[^;]*?\sfrom\s+'(\.{1,2}\/[^']+)'/gms;
  for (const match of text.matchAll(pattern)) {
    const target = path.resolve(path.dirname(file), match[1]!).replace(/\.js$/, '');
    for (const candidate of [`${target}.ts`, `${target}.tsx`, path.join(target, 'index.ts')]) {
      try {
        if (statSync(candidate).isFile()) {
          out.push(candidate);
          break;
        }
      } catch {
        // not this spelling
      }
    }
  }
  return out;
}

/** Every cycle of the graph, each as the list of files around it (found by depth-first search). */
export function cyclesOf(graph: Map<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') cycles.push(stack.slice(stack.indexOf(next)));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return cycles;
}

describe('the web app’s imports', () => {
  it('form no cycle', () => {
    const graph = new Map<string, string[]>();
    for (const file of sourceFiles(ROOT)) graph.set(file, staticImports(file, readFileSync(file, 'utf8')));
    expect(graph.size).toBeGreaterThan(100);
    const cycles = cyclesOf(graph).map((c) => c.map((f) => path.relative(ROOT, f)).join(' -> '));
    expect(cycles).toEqual([]);
  });

  it('would see a cycle', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(cyclesOf(graph)).toEqual([['a', 'b', 'c']]);
  });
});
