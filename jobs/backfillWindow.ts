import type { JobsOptions } from 'bullmq';
import { z } from 'zod';
import { STREAM_NAMES } from '../src/config/types.ts';
import type { SyncOutcome, SyncRunner } from '../src/worker/seams.ts';

/** Job name of "read one backfill window of one stream for one scope". */
export const BACKFILL_WINDOW_JOB = 'backfillWindow';

/** Payload of a backfill-window job; dates travel as ISO strings. */
export const backfillWindowPayload = z.object({
  stream: z.enum(STREAM_NAMES),
  scope: z.string().min(1),
  from: z.iso.datetime(),
  to: z.iso.datetime(),
  emitEvents: z.boolean().default(false),
  /** Which backfill (sync.backfill_windows) this window belongs to, so a resumed run skips it. */
  backfillId: z.string().min(1),
});
export type BackfillWindowPayload = z.infer<typeof backfillWindowPayload>;

/** Retries: windows are idempotent upserts, so a window may be retried freely. */
export const backfillWindowRetry = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 15_000 },
} as const satisfies JobsOptions;

/** Job id: one job per window, so enqueuing the same backfill twice adds nothing. */
export function backfillWindowJobId(
  payload: Pick<BackfillWindowPayload, 'stream' | 'scope' | 'from' | 'to'>,
): string {
  // BullMQ forbids ':' in custom ids; ISO dates contain it.
  return ['bf', payload.stream, payload.scope, payload.from, payload.to].map(encodeURIComponent).join('|');
}

/**
 * The processor: runs the engine in backfill mode over this one window. Recording the window as done
 * (sync.backfill_windows) is the caller's `onWindowDone`, so the engine stays unaware of backfills.
 */
export function createBackfillWindowProcessor(
  run: SyncRunner,
  onWindowDone?: (payload: BackfillWindowPayload, outcome: SyncOutcome) => Promise<void>,
): (data: unknown) => Promise<SyncOutcome> {
  return async (data) => {
    const payload = backfillWindowPayload.parse(data);
    const outcome = await run({
      stream: payload.stream,
      scope: payload.scope,
      mode: 'backfill',
      windows: [{ from: new Date(payload.from), to: new Date(payload.to) }],
      emitEvents: payload.emitEvents,
    });
    if (!outcome.skipped) await onWindowDone?.(payload, outcome);
    return outcome;
  };
}
