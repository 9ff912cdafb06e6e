import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.ts';

/**
 * The product stands on its own: what a user reads (code, comments, docs, database comments in the
 * migrations, schemas, deploy files) never points at a file outside the repository, such as the
 * product contract or the upstream specification the team worked from. What a user needs of them is
 * restated in docs/ (docs/upstream-api.md for the upstream API).
 */

/** What a user of the repository reads: tracked and new files (git's list: no node_modules, dist). */
const SHIPPED_PATHS = [
  'src',
  'docs',
  'migrations',
  'schemas',
  'deploy',
  'jobs',
  'scripts',
  'README.md',
  'Dockerfile',
  'docker-compose.yml',
  '.env.example',
  'package.json',
];

function filesUnder(paths: readonly string[]): string[] {
  const out = execFileSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', ...paths],
    {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  return [...new Set(out.split('\0').filter(Boolean))].filter((file) =>
    existsSync(path.join(REPO_ROOT, file)),
  );
}

/** References to files outside the repository, as they were written before this test existed. */
const OUTSIDE_REFERENCES: [RegExp, string][] = [
  [/CONTRACT\.md/, 'the product contract (CONTRACT.md)'],
  [/shared\//, 'the shared folder outside the repository (shared/)'],
  [/STYLE\.md/, 'the style guide (STYLE.md)'],
  [/fulfillment-api\.md/, "the upstream specification's file (say docs/upstream-api.md)"],
  [/\/work\//, 'a path of the machine it was written on (/work/)'],
];

/** Relative link targets of a Markdown text: `[text](target)`, without URLs or pure anchors. */
function relativeLinks(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^(?:[a-z][a-z0-9+.-]*:|#)/i.test(target));
}

const files = filesUnder(SHIPPED_PATHS);

describe('the repository stands on its own', () => {
  it('finds the files it checks', () => {
    expect(files).toContain('README.md');
    expect(files).toContain('docs/upstream-api.md');
    expect(files.filter((f) => f.startsWith('migrations/')).length).toBeGreaterThan(10);
    expect(files.filter((f) => f.startsWith('src/')).length).toBeGreaterThan(100);
  });

  it('no code, comment, doc, schema or migration names a file outside it', () => {
    const found: string[] = [];
    for (const file of files) {
      const lines = readFileSync(path.join(REPO_ROOT, file), 'utf8').split('\n');
      lines.forEach((line, index) => {
        for (const [pattern, what] of OUTSIDE_REFERENCES) {
          if (pattern.test(line)) found.push(`${file}:${index + 1}: ${what}: ${line.trim().slice(0, 120)}`);
        }
      });
    }
    expect(found).toEqual([]);
  });

  it('every relative link of its Markdown files leads to a file inside it', () => {
    const broken: string[] = [];
    for (const file of files.filter((f) => f.endsWith('.md'))) {
      const text = readFileSync(path.join(REPO_ROOT, file), 'utf8');
      for (const target of relativeLinks(text)) {
        const resolved = path.resolve(REPO_ROOT, path.dirname(file), decodeURI(target.replace(/#.*$/, '')));
        const inside = !path.relative(REPO_ROOT, resolved).startsWith('..');
        if (!inside) broken.push(`${file}: ${target} leads outside the repository`);
        else if (!existsSync(resolved)) broken.push(`${file}: ${target} does not exist`);
      }
    }
    expect(broken).toEqual([]);
  });
});
