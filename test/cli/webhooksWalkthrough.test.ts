import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CLI_ENTRY, collect, linesOf, REPO_ROOT } from '../helpers/cli.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { freePort } from '../helpers/freePort.ts';
import { cleanupRedisPrefix, testRedisPrefix } from '../helpers/redis.ts';

/**
 * docs/webhooks.md's walk-through ("Trying webhooks on your machine"), run as written through one
 * shell: a demo database, a worker, `webhooks listen` on a free port (the doc's 4020 could be taken
 * by another run), a replay, attempts, resend and events get. `npx fulfillment-sync` and `node
 * dist/src/cli/main.js` run the sources, as in test/cli/readmeSandbox.test.ts.
 */

const DOC = readFileSync(path.join(REPO_ROOT, 'docs/webhooks.md'), 'utf8');
const work = mkdtempSync(path.join(tmpdir(), 'fs-webhooks-doc-'));
const prefix = testRedisPrefix('webhooks-doc');
let t: TestDatabase;

/** The ```sh block after `<!-- readme-sandbox: webhooks-listen -->`. */
function walkthrough(): string {
  const match = /<!-- readme-sandbox: webhooks-listen -->\n```sh\n([\s\S]*?)```/.exec(DOC);
  if (!match) throw new Error('docs/webhooks.md has no readme-sandbox block "webhooks-listen"');
  return match[1]!;
}

beforeAll(async () => {
  t = await createTestDatabase();
  const bin = path.join(work, 'bin');
  mkdirSync(bin);
  const npx = execFileSync('/bin/sh', ['-c', 'command -v npx'], { encoding: 'utf8' }).trim();
  writeFileSync(
    path.join(bin, 'npx'),
    `#!/bin/sh\nif [ "$1" = fulfillment-sync ]; then shift; exec "${process.execPath}" "${CLI_ENTRY}" "$@"; fi\nexec "${npx}" "$@"\n`,
  );
  chmodSync(path.join(bin, 'npx'), 0o755);
});

afterAll(async () => {
  const redis = new Redis(inject('redisUrl'), { maxRetriesPerRequest: 1 });
  await cleanupRedisPrefix(redis, prefix);
  redis.disconnect();
  await t?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('docs/webhooks.md: trying webhooks on your machine', () => {
  it('listen prints verified deliveries, attempts show them, resend and events get work, and listen cleans up', async () => {
    const port = await freePort();
    const script = walkthrough()
      .replaceAll('node dist/src/cli/main.js', `"${process.execPath}" "${CLI_ENTRY}"`)
      .replace('webhooks listen ', `webhooks listen --port ${port} `);
    const result = await collect(
      // A failing step ends the script (set -e); the trap stops what it started in the background.
      spawn(
        '/bin/sh',
        ['-c', `set -e\ntrap 'kill $listen $worker 2>/dev/null || true' EXIT\n${script}\nwait`],
        {
          cwd: work,
          env: {
            PATH: `${path.join(work, 'bin')}:${process.env.PATH}`,
            HOME: process.env.HOME,
            DATABASE_URL: t.url,
            REDIS_URL: inject('redisUrl'),
            FULFILLMENT_QUEUE_PREFIX: prefix,
            HTTP_PORT: '0',
            LOG_LEVEL: 'warn',
          },
        },
      ),
    );
    const listened = readFileSync(path.join(work, 'listen.log'), 'utf8');
    const context = `${result.stdout}\n${result.stderr}\nlisten.log:\n${listened}`;
    expect(result.code, context).toBe(0);
    // The endpoint it added, its secret, then verified shipment deliveries of ACC100 only.
    expect(listened).toMatch(
      /^added endpoint \S+ for it until this stops: types shipment\.\*, scopes accounts ACC100$/m,
    );
    const deliveries = linesOf(listened).filter((line) => / verified /.test(line));
    expect(deliveries.length, context).toBeGreaterThan(0);
    expect(
      deliveries.every((line) => / shipment\.\S+ {2}verified /.test(line)),
      context,
    ).toBe(true);
    // attempts: a table with the answer's body under a row; resend --wait: the outcome; events get: the body.
    expect(result.stdout).toMatch(/^\s+body: /m);
    expect(result.stdout).toMatch(/^succeeded: HTTP 200 in \d+ ms/m);
    expect(result.stdout).toMatch(/"type": "shipment\./);
    // Stopped, listen removed the endpoint it added.
    const { rows } = await t.pool.query('SELECT count(*)::int AS n FROM sync.webhook_endpoints');
    expect(rows[0].n).toBe(0);
  }, 240_000);
});
