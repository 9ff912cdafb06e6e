import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resumeCommand } from '../../src/cli/actions/backfill.ts';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { collect, linesOf, runSourceCli, spawnSourceCli } from '../helpers/cli.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { waitFor } from '../helpers/waitFor.ts';

/** Ctrl-C in a backfill says how to resume, and that command picks up where it stopped. */

const TOKEN = 'interrupt-token';
let t: TestDatabase;
let sim: RunningSimulator;

beforeAll(async () => {
  t = await createTestDatabase();
  sim = await startSimulator({
    seed: 7,
    clock: 'manual',
    start: new Date('2026-11-03T20:00:00Z'),
    tokens: [TOKEN],
    volume: { historyDays: 3 },
  });
  // Every answer takes 250 ms, so the backfill is still running when the signal comes.
  sim.setFaults({ rates: { slow: 1 }, slowMs: 250 });
});
afterAll(async () => {
  await sim?.close();
  await t?.close();
});

const env = () => ({
  PATH: process.env.PATH ?? '',
  DATABASE_URL: t.url,
  FULFILLMENT_API_URL: sim.url,
  FULFILLMENT_API_TOKEN: TOKEN,
  FULFILLMENT_ACCOUNT_NUMBERS: 'ACC100,ACC200',
  LOG_LEVEL: 'silent',
});

describe('backfill interrupted with Ctrl-C', () => {
  it('prints the exact command that resumes it, and that command finishes only what was left', async () => {
    const args = ['backfill', '--stream', 'invoices', '--from', '2026-10-20', '--to', '2026-11-02'];
    const child = spawnSourceCli(args, { env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
    const result = collect(child);
    let stderr = '';
    child.stderr?.on('data', (chunk) => {
      stderr += String(chunk);
    });
    // Non-interactive progress lines on stderr: wait until some windows are done.
    await waitFor('two windows done', () => /backfill ([2-9]|\d\d+)\/28 windows/.test(stderr), 60_000);
    child.kill('SIGINT');
    const { code, stderr: all } = await result;
    expect(code).toBe(130);
    const lines = linesOf(all);
    expect(lines.at(-2)).toMatch(
      /^backfill interrupted after \d+\/28 windows; finished windows are kept\. Resume with:$/,
    );
    const resume = lines.at(-1)!.trim();
    expect(resume).toBe('npx fulfillment-sync backfill --stream invoices --from 2026-10-20 --to 2026-11-02');

    const [, , ...resumeArgs] = resume.split(' ');
    const resumed = await runSourceCli(resumeArgs, { env: env() });
    expect(resumed.code).toBe(0);
    const summary = /(\d+)\/28 windows done \((\d+) fetched now, (\d+) already done\)/.exec(resumed.stdout);
    expect(summary, resumed.stdout + resumed.stderr).not.toBeNull();
    expect(Number(summary![1])).toBe(28);
    expect(Number(summary![3])).toBeGreaterThanOrEqual(2);
  });

  it('the resume command keeps the scope, --emit-events and --window-days, quoted for a shell', () => {
    expect(
      resumeCommand({
        stream: 'returns',
        from: '2026-01-01',
        to: '2026-01-31',
        scope: "ACC 1'x",
        emitEvents: true,
        windowDays: '7',
      }),
    ).toBe(
      "npx fulfillment-sync backfill --stream returns --from 2026-01-01 --to 2026-01-31 --scope 'ACC 1'\\''x' --emit-events --window-days 7",
    );
  });
});
