import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/loadConfig.ts';

/**
 * What users read (errors, logs, help) names environment variables, never the internal Config paths
 * behind them (`api.maxRowsPerWindow` is FULFILLMENT_MAX_ROWS_PER_WINDOW to a user).
 */

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Every dotted path of the Config object, e.g. `api.maxRowsPerWindow`, `worker.concurrency`. */
function configPaths(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Date) {
    return prefix.includes('.') ? [prefix] : [];
  }
  return Object.entries(value).flatMap(([key, inner]) => [
    ...(prefix ? [`${prefix}.${key}`] : []),
    ...configPaths(inner, prefix ? `${prefix}.${key}` : key),
  ]);
}

/** The contents of the string and template literals of a TypeScript source (comments skipped). */
function stringLiterals(source: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (c === '/' && source[i + 1] === '/')
      i = source.indexOf('\n', i) === -1 ? source.length : source.indexOf('\n', i);
    else if (c === '/' && source[i + 1] === '*') i = source.indexOf('*/', i + 2) + 2;
    else if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < source.length && source[j] !== c) j += source[j] === '\\' ? 2 : 1;
      out.push(source.slice(i + 1, j));
      i = j + 1;
    } else i += 1;
  }
  return out;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(relative);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [relative] : [];
  });
}

describe('user-facing messages', () => {
  it('name environment variables, not Config paths', () => {
    const paths = configPaths(loadConfig({})).filter((p) => !p.startsWith('streams.'));
    expect(paths).toContain('api.maxRowsPerWindow');
    const pattern = new RegExp(`(?<![.\\w])(${paths.map((p) => p.replace('.', '\\.')).join('|')})\\b`);
    const found = [...sourceFiles('src'), ...sourceFiles('jobs')].flatMap((file) =>
      stringLiterals(readFileSync(path.join(ROOT, file), 'utf8'))
        .filter((literal) => pattern.test(literal))
        .map((literal) => `${file}: ${literal}`),
    );
    expect(found).toEqual([]);
  });

  it('the check sees a Config path inside a message, not in a comment or a property access', () => {
    const source = [
      '// api.timeoutMs in a comment',
      'const t = config.api.timeoutMs;',
      "throw new Error('raise api.maxRowsPerWindow');",
    ].join('\n');
    expect(stringLiterals(source)).toEqual(['raise api.maxRowsPerWindow']);
  });
});
