import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { VanishConfirmSettings } from '../config/types.ts';
import { describeWindow } from './plan.ts';
import { type Absent, judgeShrink, type ShrinkOutcome } from './shrinkRule.ts';
import type { FetchArgs, FetchResult, RowContext, StreamDefinition, Window } from './types.ts';
import { snapshotAbsence } from './vanished.ts';

/**
 * Absence is confirmed before anything vanishes (shrinkRule.ts): a window's answer that would take
 * much of what its part holds as gone (a snapshot zeroing stored inventory, an open list no longer
 * naming open records) is read again after a pause, at most `rereads` times, and only what agreeing
 * answers omit vanishes. Without agreement nothing vanishes: the shrink is withheld (a warning, the
 * run log's `vanish_withheld`, a metric) and the next run decides. Upstream calls and short pool
 * reads only: no transaction is open and no client held while it waits or reads again.
 */

export interface ConfirmArgs<R, C> {
  stream: StreamDefinition<R, C>;
  fetch: Omit<FetchArgs<C>, 'window'>;
  window: Window;
  ctx: RowContext;
  settings: VanishConfirmSettings;
  logger: Logger;
  /** Throws once the run's deadline has passed: then no further read, the shrink is withheld. */
  checkDeadline?: (() => void) | undefined;
}

/** What an answer would take as gone: a snapshot's omitted rows, or the stream's own `absent`. */
function absenceOf<R, C>(args: ConfirmArgs<R, C>, result: FetchResult<R>): Promise<Absent | undefined> {
  const { stream, fetch, window, ctx } = args;
  if (stream.entity.snapshot && window.kind === 'snapshot') {
    const vanishArgs = { db: fetch.db, stream: stream as StreamDefinition<R, unknown>, scope: fetch.scope };
    return snapshotAbsence({ ...vanishArgs, window, ctx }, result);
  }
  return Promise.resolve(result.absent);
}

/**
 * The answer to use for `window` (the latest read), with its `shrink` verdict set when it had
 * absences, and the records the stream follows up for the confirmed ones (`followGone`). Calls
 * spent on further reads and follow-ups are added to `apiCalls`.
 */
export async function confirmShrink<R, C>(
  args: ConfirmArgs<R, C>,
  first: FetchResult<R>,
): Promise<FetchResult<R>> {
  const { settings } = args;
  const firstAbsence = await absenceOf(args, first);
  if (!firstAbsence) return first;
  const held = firstAbsence.held;
  const reads: Array<{ result: FetchResult<R>; missing: ReadonlySet<string> }> = [
    { result: first, missing: new Set(firstAbsence.missing) },
  ];
  let calls = 0;
  for (;;) {
    const verdict = judgeShrink(
      reads.map((r) => r.missing),
      held,
      settings,
    );
    const latest = reads.at(-1)?.result ?? first;
    if (verdict.kind === 'vanish') {
      const confirmed = { ...latest, apiCalls: latest.apiCalls + calls };
      return follow(args, { ...confirmed, shrink: { withheld: false, gone: verdict.gone } }, verdict.gone);
    }
    // No further read allowed, or none could be had: nothing agrees, so nothing vanishes.
    const again = verdict.kind === 'reread' ? await readAgain(args) : undefined;
    if (!again) {
      const shrink: ShrinkOutcome = {
        withheld: true,
        kept: reads.at(-1)?.missing.size ?? 0,
        held,
        rows: reads.map((r) => r.result.records.length + r.result.rejected.length),
      };
      warnWithheld(args, shrink);
      return { ...latest, apiCalls: latest.apiCalls + calls, shrink };
    }
    calls += latest.apiCalls;
    const absence = await absenceOf(args, again);
    reads.push({ result: again, missing: new Set(absence?.missing ?? []) });
  }
}

/** One further read of the window after the pause; undefined when it fails or the run is out of time. */
async function readAgain<R, C>(args: ConfirmArgs<R, C>): Promise<FetchResult<R> | undefined> {
  const log = args.logger.child({ stream: args.stream.name, scope: args.fetch.scope.id });
  try {
    await sleep(args.settings.pauseMs);
    args.checkDeadline?.();
    return await args.stream.fetchWindow({ ...args.fetch, window: args.window });
  } catch (error) {
    log.warn({ err: (error as Error).message }, 'could not read a shrinking answer again; nothing vanishes');
    return undefined;
  }
}

/** The stream's follow-up of the records a confirmed answer no longer names (`followGone`). */
async function follow<R, C>(
  args: ConfirmArgs<R, C>,
  result: FetchResult<R>,
  gone: ReadonlySet<string>,
): Promise<FetchResult<R>> {
  if (!args.stream.followGone || gone.size === 0) return result;
  return args.stream.followGone({ ...args.fetch, window: args.window }, result, [...gone]);
}

/** The log line of a withheld vanish: which answers disagreed, and how many rows stay. */
function warnWithheld<R, C>(args: ConfirmArgs<R, C>, shrink: ShrinkOutcome & { withheld: true }): void {
  args.logger.warn(
    {
      stream: args.stream.name,
      scope: args.fetch.scope.id,
      window: describeWindow(args.window, args.ctx.timezone),
      heldRows: shrink.held,
      keptRows: shrink.kept,
      answerRows: shrink.rows,
    },
    'vanish withheld: an answer omitting much of what the scope holds was not confirmed by a second read; the rows stay, the next run decides',
  );
}
