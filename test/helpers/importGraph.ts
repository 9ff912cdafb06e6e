import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The static import graph of a source folder, and its cycles. Read as text (TypeScript 7 has no
 * JS compiler API): enough for our own files, which import with relative `.ts` specifiers.
 */

/** Module path (relative to the root given, `/`-separated) -> the modules of the folder it imports. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

// `import ... from '...'`, `import type ... from`, `export ... from`, and bare `import '...'`.
// `[^;'"]*` keeps one statement from reaching into the next (or into a string of an exported
// declaration); dynamic `import()` is left out, as it does not tie the modules at load time.
const STATIC_IMPORT = /(?:^|[\n;])\s*(?:(?:import|export)\b[^;'"]*?\bfrom\s*|import\s*)['"]([^'"\n]+)['"]/g;

/** The specifiers a module's static imports and re-exports name, type-only ones included. */
export function importSpecifiers(source: string): string[] {
  const withoutComments = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  return [...withoutComments.matchAll(STATIC_IMPORT)].map((m) => m[1] as string);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.test.ts'))
    .map((e) => join(e.parentPath, e.name));
}

/** Reads every non-test `.ts` file below `root` and keeps the imports that stay inside it. */
export function readImportGraph(root: string): ImportGraph {
  const base = resolve(root);
  const files = sourceFiles(base);
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = importSpecifiers(readFileSync(file, 'utf8'))
      .filter((s) => s.startsWith('.'))
      .map((s) => resolve(dirname(file), s))
      .filter((target) => known.has(target))
      .map((target) => relative(base, target).split('\\').join('/'));
    graph.set(relative(base, file).split('\\').join('/'), [...new Set(targets)]);
  }
  return graph;
}

/**
 * Groups of modules that import each other, directly or round about (strongly connected
 * components of two or more modules, or one importing itself), each sorted, sorted by first member.
 */
export function importCycles(graph: ImportGraph): string[][] {
  // Tarjan's algorithm; iterative, so a deep graph cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let next = 0;
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work: Array<{ node: string; edge: number }> = [{ node: root, edge: 0 }];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1] as { node: string; edge: number };
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const to = edges[frame.edge++] as string;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node) as number, index.get(to) as number));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent)
        low.set(parent.node, Math.min(low.get(parent.node) as number, low.get(frame.node) as number));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const members: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        members.push(member);
      } while (member !== frame.node);
      if (members.length > 1 || edges.includes(frame.node)) cycles.push(members.sort());
    }
  }
  return cycles.sort((a, b) => (a[0] as string).localeCompare(b[0] as string));
}
