/**
 * The chaos suite: `npm run chaos [-- --short] [--only 1,3]`. Starts private Postgres and Redis
 * instances, runs each scenario against them, prints the scorecard, writes it to
 * test/chaos/results[-short].json and exits 1 when any guarantee broke.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { runMigrations } from '../../src/db/migrate.ts';
import { quoteIdent, withDatabase } from '../../src/db/urls.ts';
import type { ChaosContext, Scenario } from './scenario.ts';
import { SCENARIOS } from './scenarios/index.ts';
import { formatScorecard, type ScenarioResult, Verdict } from './scorecard.ts';
import { type ChaosServices, startChaosServices } from './services.ts';

function parseOptions(): { short: boolean; only: Set<number> | undefined } {
  try {
    const { values } = parseArgs({
      options: { short: { type: 'boolean', default: false }, only: { type: 'string' } },
    });
    const only = values.only?.split(',').map((s) => Number(s.trim()));
    if (only?.some((n) => !SCENARIOS.some((s) => s.id === n)))
      throw new Error(`--only takes scenario numbers among ${SCENARIOS.map((s) => s.id).join(',')}`);
    return { short: values.short ?? false, only: only ? new Set(only) : undefined };
  } catch (error) {
    console.error(`error: ${(error as Error).message}`);
    process.exit(2);
  }
}

async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`drop database if exists ${quoteIdent(name)} with (force)`);
  } finally {
    await client.end();
  }
}

type Cleanup = () => Promise<void> | void;

/** The running scenario's cleanups: an interrupted run still stops its workers and simulators. */
let activeCleanups: Cleanup[] = [];

/** Runs `cleanups` last-registered first; a failing one is logged and the rest still run. */
async function runCleanups(cleanups: Cleanup[], log: (line: string) => void): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) {
    await Promise.resolve()
      .then(cleanup)
      .catch((e: unknown) => log(`cleanup failed: ${(e as Error).message}`));
  }
}

async function runScenario(
  scenario: Scenario,
  services: ChaosServices,
  short: boolean,
): Promise<ScenarioResult> {
  const verdict = new Verdict();
  const cleanups: Cleanup[] = [];
  activeCleanups = cleanups;
  const tag = randomBytes(3).toString('hex');
  const ctx: ChaosContext = {
    services,
    short,
    verdict,
    newDatabase: async (label) => {
      const name = `chaos_${scenario.id}_${label}_${tag}`.replace(/[^a-z0-9_]/gi, '_').toLowerCase();
      const url = withDatabase(services.postgresUrl, name);
      await runMigrations(url);
      cleanups.push(() => dropDatabase(services.postgresUrl, name));
      return url;
    },
    prefix: (label) => `chaos-${scenario.id}-${label}-${tag}`,
    defer: (cleanup) => cleanups.push(cleanup),
    log: (line) => console.error(`[${scenario.id}] ${line}`),
  };
  const started = performance.now();
  ctx.log(`${scenario.title}${short ? ' (short)' : ''}`);
  try {
    await scenario.run(ctx);
  } catch (error) {
    verdict.failures.push(`scenario ended with an error: ${(error as Error).message}`);
  }
  await runCleanups(cleanups, ctx.log);
  return {
    id: scenario.id,
    title: scenario.title,
    passed: verdict.failures.length === 0,
    figures: verdict.figures,
    failures: verdict.failures,
    seconds: (performance.now() - started) / 1000,
  };
}

async function main(): Promise<void> {
  const { short, only } = parseOptions();
  const services = await startChaosServices();
  const stopOnSignal = () =>
    void runCleanups(activeCleanups, (line) => console.error(line))
      .then(() => services.stop())
      .finally(() => process.exit(130));
  process.once('SIGINT', stopOnSignal);
  process.once('SIGTERM', stopOnSignal);
  const results: ScenarioResult[] = [];
  try {
    for (const scenario of SCENARIOS) {
      if (only && !only.has(scenario.id)) continue;
      results.push(await runScenario(scenario, services, short));
    }
  } finally {
    await services.stop();
  }
  console.log(formatScorecard(results));
  if (!only) {
    const file = path.join(import.meta.dirname, short ? 'results-short.json' : 'results.json');
    writeFileSync(file, `${JSON.stringify({ at: new Date().toISOString(), short, results }, null, 2)}\n`);
  }
  process.exit(results.every((r) => r.passed) ? 0 : 1);
}

main().catch((error: unknown) => {
  console.error(`error: chaos suite could not run: ${(error as Error).message}`);
  process.exit(2);
});
