import { describe, expect, it } from 'vitest';
import { importCycles, importSpecifiers, readImportGraph } from '../helpers/importGraph.ts';

/**
 * Modules that import each other cannot be understood, tested or moved one at a time, and their
 * load order decides which sees the other's exports as undefined. src has none, but for those
 * listed here.
 */
const KNOWN_CYCLES: readonly (readonly string[])[] = [];

describe('import cycles in src', () => {
  it('has none but the known ones, and every known one still exists', () => {
    expect(importCycles(readImportGraph('src'))).toEqual(KNOWN_CYCLES);
  });
});

describe('importCycles', () => {
  it('finds direct, round-about and self imports, and nothing in a tree', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts', 'd.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['e.ts']],
      ['e.ts', ['d.ts']],
      ['f.ts', ['f.ts']],
      ['g.ts', ['a.ts', 'd.ts']],
    ]);
    expect(importCycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts'], ['d.ts', 'e.ts'], ['f.ts']]);
    const tree = new Map([
      ['x.ts', ['y.ts']],
      ['y.ts', []],
    ]);
    expect(importCycles(tree)).toEqual([]);
  });
});

describe('importSpecifiers', () => {
  it('reads every static form, type-only ones too, and skips comments and dynamic imports', () => {
    const source = [
      "import { a } from './a.ts';",
      "import type { B } from './b.ts';",
      'import {',
      '  c,',
      '  type C,',
      "} from './c.ts';",
      "export { d } from './d.ts';",
      "export * from './e.ts';",
      "import './f.ts';",
      "// import { g } from './g.ts';",
      "/* import { h } from './h.ts'; */",
      "const i = await import('./i.ts');",
      "const text = 'import nothing';",
      "export type { J } from './j.ts';",
      'export class K extends Error {',
      "  override name = 'K';",
      '}',
    ].join('\n');
    expect(importSpecifiers(source)).toEqual([
      './a.ts',
      './b.ts',
      './c.ts',
      './d.ts',
      './e.ts',
      './f.ts',
      './j.ts',
    ]);
  });
});
