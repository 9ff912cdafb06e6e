import { type Command, Option } from 'commander';
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
    `other accepted tokens: ${(options.tokens ?? []).slice(1).join(', ') || '(none)'}; client credentials at ${tokenUrl}`,
    `world: ${JSON.stringify(world)}`,
    `control: GET /_sim/world, POST /_sim/clock {"advanceMinutes":N}, GET /_sim/truth, POST /_sim/faults${options.scenario ? ', GET /_sim/poison' : ''}`,
  ];
}

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

/** Registers `simulator`: serves the stateful fake of the fulfillment API until SIGINT/SIGTERM. */
export function registerSimulatorCommand(program: Command, context: CliContext): void {
  program
    .command('simulator')
    .description(
      'serve a stateful simulator of the fulfillment API (same seed, same world); see src/simulator/README.md',
    )
    .option('--port <n>', 'port to listen on (0 = any free port)', '4010')
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--seed <n>', 'world seed: the same seed and start give byte-identical answers', '42')
    .option('--token <token>', 'accepted bearer token (repeatable; default: sandbox-token)', collect)
    .option('--client-id <id>', 'client id accepted by POST /oauth/token', 'sandbox-client')
    .option('--client-secret <secret>', 'client secret accepted by POST /oauth/token', 'sandbox-secret')
    .addOption(
      new Option(
        '--clock <mode>',
        'real: follows real time; manual: moves only via POST /_sim/clock {"advanceMinutes": N}',
      )
        .choices(['manual', 'real'])
        .default('real'),
    )
    .option('--start <iso>', 'simulated now at start (default: the current hour)')
    .option('--timezone <tz>', 'zone of wall-clock windows ("PST")', 'America/Los_Angeles')
    .option('--history-days <n>', 'simulated days of history generated before the start', '14')
    .option(
      '--records <n>',
      'volume: extra static shipment updates spread over the history (e.g. 1000000)',
      '0',
    )
    .option('--orders-per-day <n>', 'new orders per account per simulated day (default 30)')
    .option('--fault-rate <p>', 'total fault rate per request, spread over --fault-kinds')
    .option('--fault-kinds <list>', `comma list of fault kinds for --fault-rate: ${FAULT_KINDS.join(', ')}`)
    .option(
      '--fault <kind=rate>',
      'rate of one fault kind, e.g. --fault http5xx=0.1 (repeatable)',
      collect,
      [],
    )
    .option('--fault-seed <n>', 'seed of the fault sequence (default: --seed); same seed, same faults')
    .option('--fault-ops <list>', 'only these operations get faults, e.g. "GET Shipments/Updates"')
    .option('--slow-ms <n>', 'delay of a slow answer (default 1500)')
    .option('--retry-after <s>', 'Retry-After seconds of a 429, injected or --scenario poison (default 1)')
    .option('--row-cap <n>', 'answer-size cap per window; larger windows fail so the client splits them')
    .addOption(
      new Option('--row-cap-mode <mode>', 'error: HTTP 413 + isSuccess false; truncate: first N rows')
        .choices(['error', 'truncate'])
        .default('error'),
    )
    .addOption(
      new Option(
        '--scenario <name>',
        'poison: a few records and answers broken as a misbehaving upstream breaks them (GET /_sim/poison lists them)',
      ).choices(['poison']),
    )
    .option(
      '--poison-rate-limit <p>',
      'with --scenario poison: share of calls answered 429 "Too many requests" (default 0.03)',
    )
    .option(
      '--poison-kinds <list>',
      `with --scenario poison: only these poisons, of ${POISON_KINDS.join(', ')}`,
    )
    .action(async (raw: SimulatorCliOptions) => {
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
    });
}
