import type { JobsOptions } from 'bullmq';
import { z } from 'zod';
import { STREAM_NAMES } from '../src/config/types.ts';
import type { SyncOutcome, SyncRunner } from '../src/worker/seams.ts';

/** Job name of "sync one stream for one scope, incrementally". */
export const SYNC_STREAM_JOB = 'syncStream';

/** Payload of a sync job. */
export const syncStreamPayload = z.object({
  stream: z.enum(STREAM_NAMES),
  scope: z.string().min(1, 'scope must be a supplier id or account number'),
});
export type SyncStreamPayload = z.infer<typeof syncStreamPayload>;

/**
 * Retries: a failed run keeps its cursor, so retrying is safe; a few attempts with exponential
 * backoff ride out upstream hiccups, and the next scheduled run catches up anyway.
 */
export const syncStreamRetry = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 30_000 },
} as const satisfies JobsOptions;

/** Deduplication id: at most one queued or running sync per stream and scope across all workers. */
export function syncStreamDedupId(payload: SyncStreamPayload): string {
  return `${payload.stream}:${payload.scope}`;
}

/** Job options for enqueuing a sync on demand (schedulers use their own template). */
export function syncStreamJobOptions(payload: SyncStreamPayload): JobsOptions {
  return { ...syncStreamRetry, deduplication: { id: syncStreamDedupId(payload) } };
}

/** The processor: validates the payload and runs the injected engine incrementally. */
export function createSyncStreamProcessor(run: SyncRunner): (data: unknown) => Promise<SyncOutcome> {
  return async (data) => {
    const payload = syncStreamPayload.parse(data);
    return run({ stream: payload.stream, scope: payload.scope, mode: 'incremental' });
  };
}
