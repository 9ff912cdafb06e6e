import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.ts';
import { SANDBOX_BLOCKS } from '../helpers/docBlocks.ts';

/**
 * Every shell block a reader may copy from README.md or docs/ is either run by a test as written
 * (`<!-- readme-sandbox: name -->`, test/cli/readmeSandbox.test.ts) or says why no test runs it
 * (`<!-- not-run-by-tests: reason -->`), so a new command cannot slip in untested unnoticed.
 */

const DOCUMENTS = [
  'README.md',
  ...readdirSync(path.join(REPO_ROOT, 'docs')).map((name) => `docs/${name}`),
].filter((file) => file.endsWith('.md'));

describe('shell blocks in the docs', () => {
  it('are each run by a test, or say why not', () => {
    const unmarked: string[] = [];
    let marked = 0;
    for (const file of DOCUMENTS) {
      const lines = readFileSync(path.join(REPO_ROOT, file), 'utf8').split('\n');
      lines.forEach((line, index) => {
        if (!/^```(sh|bash|shell|console)\s*$/.test(line)) return;
        const before = lines[index - 1] ?? '';
        const sandbox = /^<!-- readme-sandbox: ([\w-]+) -->$/.exec(before)?.[1];
        if (sandbox !== undefined && SANDBOX_BLOCKS[file]?.includes(sandbox)) marked += 1;
        else if (/^<!-- not-run-by-tests: .+ -->$/.test(before)) marked += 1;
        else
          unmarked.push(
            `${file}:${index + 1}${sandbox ? ` (readme-sandbox: ${sandbox} is run by no test)` : ''}`,
          );
      });
    }
    expect(unmarked).toEqual([]);
    expect(marked).toBeGreaterThanOrEqual(7);
  });
});
