import { type Command, Option } from 'commander';
import { FAULT_KINDS } from '../../simulator/faults.ts';
import { POISON_KINDS } from '../../simulator/poison/types.ts';
import type { SimulatorCliOptions } from '../actions/simulator.ts';
import type { CliContext } from '../context.ts';

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
      const { simulatorAction } = await import('../actions/simulator.ts');
      await simulatorAction(context, raw);
    });
}
