/**
 * No import cycles in the app, the server or common/ (issue 10: an 8-file cycle ran dialogs →
 * components → hooks → dialogs). A cycle makes module start-up order matter and lets a change in
 * one file break an unrelated one, so the whole graph is checked on every run. Type-only imports
 * are left out: they vanish at build time and cannot cycle at run time.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ALIASES = { '~/': 'app/', '#common/': 'common/' };
const EXTENSIONS = ['', '.ts', '.tsx', '/index.ts', '/index.tsx'];
const IMPORT = /^(?:import|export)\s+(?!type\b)[^;]*?\bfrom\s+'([^']+)'/gm;

function sourceFiles(dir) {
  return readdirSync(path.join(root, dir)).flatMap((name) => {
    const relative = `${dir}/${name}`;
    if (statSync(path.join(root, relative)).isDirectory()) return sourceFiles(relative);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [relative] : [];
  });
}

function resolveImport(files, importer, specifier) {
  const alias = Object.keys(ALIASES).find((prefix) => specifier.startsWith(prefix));
  let base;
  if (alias) base = ALIASES[alias] + specifier.slice(alias.length);
  else if (specifier.startsWith('.')) base = path.posix.normalize(path.posix.join(path.posix.dirname(importer), specifier));
  else return undefined;
  return EXTENSIONS.map((extension) => base + extension).find((candidate) => files.has(candidate));
}

export function importGraph(dirs) {
  const files = new Set(dirs.flatMap(sourceFiles));
  const graph = new Map();
  for (const file of files) {
    const source = readFileSync(path.join(root, file), 'utf8');
    const targets = [...source.matchAll(IMPORT)].map((match) => resolveImport(files, file, match[1])).filter(Boolean);
    graph.set(file, new Set(targets));
  }
  return graph;
}

/** Strongly connected components of more than one file (Tarjan), each a cycle. */
export function cyclesOf(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const cycles = [];
  let counter = 0;
  const visit = (file) => {
    index.set(file, counter);
    low.set(file, counter++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file), low.get(target)));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file), index.get(target)));
    }
    if (low.get(file) !== index.get(file)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}

describe('import cycles (issue 10: the house keeps no import cycle)', () => {
  it('finds a cycle when there is one, so the check below can fail', () => {
    const graph = new Map([
      ['a.ts', new Set(['b.ts'])],
      ['b.ts', new Set(['c.ts'])],
      ['c.ts', new Set(['a.ts'])],
      ['d.ts', new Set(['a.ts'])],
    ]);
    expect(cyclesOf(graph)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });

  it('app/, server/ and common/ import each other without a cycle', () => {
    const graph = importGraph(['app', 'server', 'common']);
    expect(graph.size).toBeGreaterThan(300);
    expect(cyclesOf(graph)).toEqual([]);
  });
});
