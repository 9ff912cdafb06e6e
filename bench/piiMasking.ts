/**
 * `npx tsx bench/piiMasking.ts [--rounds 9]`, DATABASE_URL naming a migrated database with synced
 * orders (`fulfillment-sync demo` against it first): what reading masked order JSON costs now (the
 * allow-list with its second pass by value pattern, through fulfillment_masked.orders) against the
 * deny-list it replaced (members named personal hashed, every other kept: the function of migration
 * *_pii_masking_functions.sql, recreated in this session only), over the same orders' `raw`. The two
 * run in turn, round after round, and the figure is the median of the paired ratios (the machine is
 * shared; a ratio taken pair by pair keeps its meaning when its speed drifts). Each query is timed as
 * the CPU its Postgres backend spent (from /proc, when the server runs on this machine; wall time
 * otherwise), which other processes on a busy machine disturb far less than wall time. Asserts nothing.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { MIGRATIONS_FOLDER } from '../src/db/migrate.ts';

const url = process.env.DATABASE_URL;
const at = process.argv.indexOf('--rounds');
const rounds = at === -1 ? 9 : Math.max(1, Number(process.argv[at + 1]) || 9);

/** The deny-list masking function and the lists its views passed, from the migrations that made them. */
function denyList(): { fn: string; members: string; parts: string } {
  const functions = readFileSync(path.join(MIGRATIONS_FOLDER, '0027_pii_masking_functions.sql'), 'utf8');
  const body = functions.slice(functions.indexOf('CREATE OR REPLACE FUNCTION sync.pii_mask_json('));
  const fn = body.replaceAll('sync.pii_mask_json(', 'pg_temp.pii_mask_json_deny(');
  const views = readFileSync(path.join(MIGRATIONS_FOLDER, '0028_pii_masked_views.sql'), 'utf8');
  const lists =
    /sync\.pii_mask_json\(t\."raw", (ARRAY\[[^\]]*\]::text\[\]), (ARRAY\[[^\]]*\]::text\[\])/.exec(views);
  if (!lists) throw new Error('the deny-list views of migration 0028 were not found');
  return { fn, members: lists[1]!, parts: lists[2]! };
}

/** CPU milliseconds (user + system) a process has used so far, from /proc/<pid>/stat (100 ticks a second). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** How long `sql` took: its backend's CPU time when `backend` is a local pid, else wall time. */
async function timed(client: pg.Client, sql: string, backend: number | undefined): Promise<number> {
  const started = backend === undefined ? performance.now() : cpuMs(backend);
  await client.query(sql);
  return (backend === undefined ? performance.now() : cpuMs(backend)) - started;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  if (!url) throw new Error('set DATABASE_URL to a migrated database with synced orders');
  const client = new pg.Client({ connectionString: url, application_name: 'bench pii masking' });
  await client.connect();
  try {
    const orders = (await client.query<{ n: number }>('SELECT count(*)::int AS n FROM fulfillment.orders'))
      .rows[0]!.n;
    if (orders === 0) throw new Error('no orders: run `fulfillment-sync demo` against this database first');
    const deny = denyList();
    await client.query(deny.fn);
    const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    const backend = existsSync(`/proc/${pid}/stat`) ? pid : undefined;
    const pads =
      'LEFT JOIN (SELECT sync.hmac_pad(k.key, 54) AS inner_pad, sync.hmac_pad(k.key, 92) AS outer_pad FROM sync.pii_key k LIMIT 1) p ON true';
    const before = `SELECT sum(length(pg_temp.pii_mask_json_deny(t.raw, ${deny.members}, ${deny.parts}, p.inner_pad, p.outer_pad)::text)) FROM fulfillment.orders t ${pads}`;
    const after = 'SELECT sum(length(raw::text)) FROM fulfillment_masked.orders';
    const clear = 'SELECT sum(length(raw::text)) FROM fulfillment.orders';
    await timed(client, before, backend);
    await timed(client, after, backend);
    const ratios: number[] = [];
    const times = { before: [] as number[], after: [] as number[], clear: [] as number[] };
    for (let round = 0; round < rounds; round++) {
      const b = await timed(client, before, backend);
      const a = await timed(client, after, backend);
      times.before.push(b);
      times.after.push(a);
      times.clear.push(await timed(client, clear, backend));
      ratios.push(a / b);
      process.stderr.write(
        `round ${round + 1}: deny-list ${b.toFixed(0)} ms, allow-list ${a.toFixed(0)} ms\n`,
      );
    }
    const result = {
      orders,
      rounds,
      timed: backend === undefined ? 'wall' : 'backend cpu',
      denyListMs: Math.round(median(times.before)),
      allowListMs: Math.round(median(times.after)),
      unmaskedMs: Math.round(median(times.clear) * 10) / 10,
      allowOverDeny: Math.round(median(ratios) * 100) / 100,
      allowOverDenyMin: Math.round(Math.min(...ratios) * 100) / 100,
      allowOverDenyMax: Math.round(Math.max(...ratios) * 100) / 100,
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await client.end();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
