import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER } from '../../src/db/migrate.ts';

const run = promisify(execFile);
const work = mkdtempSync(path.join(tmpdir(), 'fs-drift-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the committed migrations', () => {
  it('match the Drizzle schema: drizzle-kit generate produces nothing new (as CI checks)', async () => {
    const out = path.join(work, 'migrations');
    cpSync(MIGRATIONS_FOLDER, out, { recursive: true });
    const before = readdirSync(out).sort();
    const config = path.join(work, 'drizzle.config.ts');
    writeFileSync(
      config,
      `export default ${JSON.stringify({
        dialect: 'postgresql',
        // drizzle-kit prefixes './' to these, so they must be relative to the working directory.
        schema: './src/db/schema/index.ts',
        out: path.relative(process.cwd(), out),
        schemaFilter: ['fulfillment', 'fulfillment_masked', 'analytics', 'sync'],
      })};\n`,
    );
    const result = await run('npx', ['drizzle-kit', 'generate', '--config', config, '--name', 'drift-check']);
    // drizzle-kit exits 0 even when it fails, so insist on its positive answer as well.
    expect(result.stdout + result.stderr).toMatch(/No schema changes, nothing to migrate/);
    expect(readdirSync(out).sort()).toEqual(before);
  });
});
