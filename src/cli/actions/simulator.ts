import {
  FAULT_KINDS,
  type FaultKind,
  type FaultOptions,
  POISON_KINDS,
  type PoisonKind,
  type SimulatorOptions,
  startSimulator,
} from '../../simulator/index.ts';
import type { CliContext } from '../context.ts';
import { UsageError } from '../usageError.ts';

/** Raw commander options of `simulator`. */
export interface SimulatorCliOptions {
  port: string;
  host: string;
  seed: string;
  token: string[] | undefined;
  clientId: string;
  clientSecret: string;
  clock: 'manual' | 'real';
  start?: string;
  timezone: string;
  historyDays: string;
  records: string;
  ordersPerDay?: string;
  faultRate?: string;
  faultKinds?: string;
  fault: string[];
  faultSeed?: string;
  faultOps?: string;
  slowMs?: string;
  retryAfter?: string;
  rowCap?: string;
  rowCapMode: 'error' | 'truncate';
  scenario?: 'poison';
  poisonRateLimit?: string;
  poisonKinds?: string;
}

function int(value: string | undefined, name: string, min = 0): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min)
    throw new UsageError(`--${name} must be an integer >= ${min}, got "${value}"`);
  return n;
}

function rate(value: string, name: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 1)
    throw new UsageError(`${name} must be a rate between 0 and 1, got "${value}"`);
  return n;
}

function kind(value: string): FaultKind {
  if (!(FAULT_KINDS as readonly string[]).includes(value)) {
    throw new UsageError(`unknown fault kind "${value}"; known: ${FAULT_KINDS.join(', ')}`);
  }
  return value as FaultKind;
}

function poisonKind(value: string): PoisonKind {
  if (!(POISON_KINDS as readonly string[]).includes(value))
    throw new UsageError(`unknown poison kind "${value}"; known: ${POISON_KINDS.join(', ')}`);
  return value as PoisonKind;
}

/** Turns the command line into simulator options; throws UsageError naming the bad flag. */
export function simulatorOptionsFromCli(o: SimulatorCliOptions): SimulatorOptions {
  let start: Date | undefined;
  if (o.start !== undefined) {
    start = new Date(o.start);
    if (Number.isNaN(start.getTime()))
      throw new UsageError(`--start must be an ISO 8601 date-time, got "${o.start}"`);
    start = new Date(Math.floor(start.getTime() / 60_000) * 60_000);
  }
  const faults: FaultOptions = {};
  if (o.faultRate !== undefined) faults.rate = rate(o.faultRate, '--fault-rate');
  if (o.faultKinds !== undefined) faults.kinds = o.faultKinds.split(',').map((k) => kind(k.trim()));
  for (const pair of o.fault) {
    const [k, r] = pair.split('=');
    faults.rates = { ...faults.rates, [kind((k ?? '').trim())]: rate(r ?? '', `--fault ${pair}`) };
  }
  if (o.faultSeed !== undefined) faults.seed = int(o.faultSeed, 'fault-seed');
  if (o.faultOps !== undefined) faults.only = o.faultOps.split(',').map((s) => s.trim());
  if (o.slowMs !== undefined) faults.slowMs = int(o.slowMs, 'slow-ms');
  if (o.retryAfter !== undefined) faults.retryAfterSeconds = int(o.retryAfter, 'retry-after');
  const sum = Object.values(faults.rates ?? {}).reduce((a, b) => a + b, 0);
  if (sum > 1) throw new UsageError(`--fault rates add up to ${sum}; they must sum to at most 1`);
  const ordersPerDay = int(o.ordersPerDay, 'orders-per-day');
  for (const [flag, value] of [
    ['--poison-rate-limit', o.poisonRateLimit],
    ['--poison-kinds', o.poisonKinds],
  ] as const)
    if (value !== undefined && o.scenario !== 'poison')
      throw new UsageError(`${flag} needs --scenario poison`);
  const poison =
    o.scenario === 'poison'
      ? {
          ...(o.poisonRateLimit === undefined
            ? {}
            : { rateLimitRate: rate(o.poisonRateLimit, '--poison-rate-limit') }),
          ...(faults.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: faults.retryAfterSeconds }),
          ...(o.poisonKinds === undefined
            ? {}
            : { kinds: o.poisonKinds.split(',').map((k) => poisonKind(k.trim())) }),
        }
      : undefined;
  return {
    port: int(o.port, 'port'),
    host: o.host,
    seed: int(o.seed, 'seed'),
    tokens: o.token,
    clientCredentials: { clientId: o.clientId, clientSecret: o.clientSecret },
    clock: o.clock,
    start,
    timezone: o.timezone,
    volume: {
      historyDays: int(o.historyDays, 'history-days'),
      shipments: int(o.records, 'records'),
      rates: ordersPerDay === undefined ? {} : { ordersPerDay },
    },
    faults,
    rowCap: int(o.rowCap, 'row-cap', 1),
    rowCapMode: o.rowCapMode,
    ...(poison ? { scenario: 'poison' as const, poison } : {}),
  };
}

/** What GET /_sim/world answers (the parts the banner prints). */
export interface SimulatorWorld {
  suppliers: string[];
  accounts: string[];
  [key: string]: unknown;
}

/**
 * What `simulator` prints at start: where it listens and the exact variables that point the worker
 * at it (FULFILLMENT_API_URL is the service root; the client adds /api/v1 itself).
 */
export function simulatorBanner(
  url: string,
  tokenUrl: string,
  options: SimulatorOptions,
  world: SimulatorWorld,
): string[] {
  return [
    `fulfillment API simulator listening on ${url} (API under ${url}/api/v1; clock ${options.clock}, seed ${options.seed})`,
    'point fulfillment-sync at it with:',
    `  FULFILLMENT_API_URL=${url}`,
    `  FULFILLMENT_API_TOKEN=${options.tokens?.[0] ?? ''}`,
    `  FULFILLMENT_SUPPLIER_IDS=${world.suppliers.join(',')}`,
    `  FULFILLMENT_ACCOUNT_NUMBERS=${world.accounts.join(',')}`,
    // The sync's windows follow this simulator's clock, not the machine's (it may be manual or started in the past).
    '  FULFILLMENT_CLOCK=simulator',
    `other accepted tokens: ${(options.tokens ?? []).slice(1).join(', ') || '(none)'}; client credentials at ${tokenUrl}`,
    `world: ${JSON.stringify(world)}`,
    `control: GET /_sim/world, POST /_sim/clock {"advanceMinutes":N}, GET /_sim/truth, POST /_sim/faults${options.scenario ? ', GET /_sim/poison' : ''}`,
  ];
}

/** `simulator`: serves the simulator until SIGINT or SIGTERM. */
export async function simulatorAction(context: CliContext, raw: SimulatorCliOptions): Promise<void> {
  const options = simulatorOptionsFromCli({
    ...raw,
    token: raw.token && raw.token.length > 0 ? raw.token : ['sandbox-token'],
  });
  const sim = await startSimulator(options);
  const world = (await (await fetch(`${sim.url}/_sim/world`)).json()) as SimulatorWorld;
  for (const line of simulatorBanner(sim.url, sim.tokenUrl, options, world)) context.print(line);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await sim.close();
  context.print('simulator stopped');
}
