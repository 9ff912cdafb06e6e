import { type Command, InvalidArgumentError } from 'commander';
import type { ReplaySelection } from '../../webhooks/recovery/replay.ts';
import type { AttemptStatus } from '../../webhooks/views/deliveries.ts';
import type { CliContext } from '../context.ts';
import { UsageError } from '../usageError.ts';
import { parseAttemptStatus, parseLimit, parseSince } from './webhookInputs.ts';
import { type Print, runWebhookAction as run } from './webhookRun.ts';

function parseDate(value: string): Date {
  const date = new Date(value);
  if (Number.isNaN(date.getTime()))
    throw new InvalidArgumentError(`"${value}" is not a date (use ISO 8601).`);
  return date;
}

/** Registers `webhooks replay|recover|resend|attempts|stats` on the `webhooks` group. */
export function registerWebhookDeliveryCommands(webhooks: Command, context: CliContext): void {
  const print: Print = (line) => context.print(line);
  webhooks
    .command('replay')
    .description('re-send events by id or occurred-at range, with the same webhook-id')
    .option('--event <id>', 'one event id')
    .option('--from <date>', 'start of the range (inclusive, ISO 8601)', parseDate)
    .option('--to <date>', 'end of the range (exclusive, ISO 8601)', parseDate)
    .option('--endpoint <id>', 'only this endpoint (default: every enabled endpoint that wants the type)')
    .action((opts: { event?: string; from?: Date; to?: Date; endpoint?: string }) => {
      const selection = replaySelection(opts);
      if (!selection) throw new UsageError('replay needs --event ID, or both --from and --to.');
      return run(context, (a, db) => a.webhooksReplay(db, selection, opts.endpoint, print));
    });
  webhooks
    .command('recover <endpoint>')
    .description(
      're-send what failed or gave up since --since (never what succeeded), and what was not sent while the endpoint was disabled, with the same webhook-ids',
    )
    // Parsed in the action, not by commander: a missing <endpoint> or an unknown option is then
    // told before a bad time.
    .requiredOption('--since <time>', 'ISO 8601, or back from now: 30m, 2h, 7d')
    .action((endpointId: string, opts: { since: string }) => {
      const since = sinceOrUsage(opts.since);
      return run(context, (a, db) => a.webhooksRecover(db, endpointId, since, print));
    });
  webhooks
    .command('resend <attempt>')
    .description(
      "send one attempt's event to its endpoint once more, now: the id is the first column of `webhooks attempts`; same webhook-id, one attempt, no retries; a running worker sends it",
    )
    .option('--wait', "wait for the worker's attempt and print its outcome (exit 1 unless 2xx)")
    .action((attempt: string, opts: { wait?: boolean }) => {
      const attemptId = attemptIdOrUsage(attempt);
      return run(context, (a, db) => a.webhooksResend(db, attemptId, print, opts));
    });
  webhooks
    .command('attempts')
    .description(
      'list delivery attempts, newest first: id (for resend), status, HTTP answer, duration, error, the first 1 KB of the answer',
    )
    .option('--endpoint <id>', 'only this endpoint')
    .option('--event <id>', 'only this event (its webhook-id)')
    .option('--status <status>', 'succeeded, failed (a retry follows) or gave_up', parseAttemptStatus)
    .option('--since <time>', 'made at or after: ISO 8601, or back from now: 30m, 2h, 7d', (v) =>
      parseSince(v),
    )
    .option('--limit <n>', 'at most this many (default 100)', parseLimit, 100)
    .option('--json', 'a JSON array, for scripts')
    .action(
      (opts: {
        endpoint?: string;
        event?: string;
        status?: AttemptStatus;
        since?: Date;
        limit: number;
        json?: boolean;
      }) =>
        run(context, (a, db) =>
          a.webhooksAttempts(
            db,
            {
              endpointId: opts.endpoint,
              eventId: opts.event,
              status: opts.status,
              since: opts.since,
              limit: opts.limit,
            },
            print,
            { json: opts.json },
          ),
        ),
    );
  webhooks
    .command('stats')
    .description(
      'per endpoint: attempts, success rate, p50/p95 duration (last 24 h unless --since), last success and failure',
    )
    .option('--endpoint <id>', 'only this endpoint')
    .option('--since <time>', 'count from: ISO 8601, or back from now (default 24h)', (v) => parseSince(v))
    .option('--json', 'a JSON array, for scripts')
    .action((opts: { endpoint?: string; since?: Date; json?: boolean }) =>
      run(context, (a, db) =>
        a.webhooksStats(db, { endpointId: opts.endpoint, since: opts.since }, print, opts),
      ),
    );
}

function sinceOrUsage(value: string): Date {
  try {
    return parseSince(value);
  } catch (error) {
    throw new UsageError(`--since: ${(error as Error).message}`);
  }
}

function replaySelection(opts: { event?: string; from?: Date; to?: Date }): ReplaySelection | undefined {
  if (opts.event && !opts.from && !opts.to) return { eventId: opts.event };
  if (!opts.event && opts.from && opts.to) {
    // [from, to) with from >= to can hold nothing: a swapped pair of dates, told as such.
    if (opts.from.getTime() >= opts.to.getTime()) {
      throw new UsageError(
        `--from must be before --to (the range is [from, to)), got ${opts.from.toISOString()} and ${opts.to.toISOString()}`,
      );
    }
    return { from: opts.from, to: opts.to };
  }
  return undefined;
}

function attemptIdOrUsage(value: string): number {
  const id = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(id) || id < 1) {
    throw new UsageError(
      `"${value}" is not an attempt id: use the id column of \`webhooks attempts\` (a whole number).`,
    );
  }
  return id;
}
