import type { Queue } from 'bullmq';
import {
  SYNC_STREAM_JOB,
  type SyncStreamPayload,
  syncStreamJobOptions,
  syncStreamRetry,
} from '../../jobs/syncStream.ts';
import type { StreamName } from '../config/types.ts';
import { type PollPlan, type PollPlanConfig, pollPlan } from '../polling/pollPlan.ts';
import type { RedisConnection } from '../redis/connection.ts';
import { JOB_RETENTION } from './queues.ts';
import { withRedisLock } from './redisLock.ts';
import { phaseOffsetMs } from './schedulePhase.ts';

/** One job scheduler we want: a stream for a scope every `everyMs`, at `offsetMs` into each period. */
export interface DesiredSchedule {
  id: string;
  stream: StreamName;
  scope: string;
  everyMs: number;
  /** The scheduler's phase (schedulePhase.ts), so that schedulers do not all come due at once. */
  offsetMs: number;
}

/** The scheduler id of a stream and scope; stable across deploys so upserts update in place. */
export function scheduleId(stream: StreamName, scope: string): string {
  return `sync:${stream}:${scope}`;
}

/**
 * Pure: one schedule per stream x scope the polling plan polls (src/polling/pollPlan.ts: from the
 * freshness targets and the budget, or the cadence), at the plan's interval; none for on-demand orders.
 */
export function desiredSchedules(
  config: PollPlanConfig,
  plan: PollPlan = pollPlan(config),
): DesiredSchedule[] {
  return plan.streams.flatMap(({ stream, intervalSeconds, scopes }) => {
    if (intervalSeconds === null) return [];
    const everyMs = intervalSeconds * 1000;
    return scopes.map((scope) => {
      const id = scheduleId(stream, scope);
      return { id, stream, scope, everyMs, offsetMs: phaseOffsetMs(id, everyMs) };
    });
  });
}

/** What a registration changed, for the log line and the tests. */
export interface ScheduleRegistration {
  created: string[];
  updated: string[];
  unchanged: string[];
  removed: string[];
}

/**
 * Makes the queue's schedulers equal `desired`: upserts new or changed ones, leaves equal ones alone
 * and removes schedulers of streams or scopes no longer configured. Runs under a Redis lock so
 * workers starting together neither duplicate nor lose a schedule. A new scheduler's first run is
 * at its phase, up to a period away (a day for products), so its stream and scope also get one
 * run now, as on-demand syncs are enqueued (at most one queued per stream and scope).
 */
export async function registerSchedules(
  queue: Queue,
  desired: readonly DesiredSchedule[],
  { redis, lockWaitMs = 60_000 }: { redis: RedisConnection; lockWaitMs?: number },
): Promise<ScheduleRegistration> {
  const lockKey = `${queue.opts.prefix ?? 'bull'}:${queue.name}:schedules-lock`;
  return withRedisLock(redis, lockKey, () => reconcile(queue, desired), { waitMs: lockWaitMs });
}

async function reconcile(queue: Queue, desired: readonly DesiredSchedule[]): Promise<ScheduleRegistration> {
  const existing = new Map((await queue.getJobSchedulers(0, -1)).map((s) => [s.key, s]));
  const result: ScheduleRegistration = { created: [], updated: [], unchanged: [], removed: [] };
  const wanted = new Set(desired.map((d) => d.id));

  for (const schedule of desired) {
    const current = existing.get(schedule.id);
    const sameEvery = Number(current?.every) === schedule.everyMs;
    if (current && sameEvery && Number(current.offset) === schedule.offsetMs) {
      result.unchanged.push(schedule.id);
      continue;
    }
    // With its period unchanged BullMQ keeps a scheduler's phase on upsert: a new phase (a
    // scheduler registered before phases existed) needs the scheduler created afresh.
    if (current && sameEvery) await queue.removeJobScheduler(schedule.id);
    const data: SyncStreamPayload = { stream: schedule.stream, scope: schedule.scope };
    await queue.upsertJobScheduler(
      schedule.id,
      { every: schedule.everyMs, offset: schedule.offsetMs },
      { name: SYNC_STREAM_JOB, data, opts: { ...syncStreamRetry, ...JOB_RETENTION } },
    );
    if (current) result.updated.push(schedule.id);
    else {
      await queue.add(SYNC_STREAM_JOB, data, { ...syncStreamJobOptions(data), ...JOB_RETENTION });
      result.created.push(schedule.id);
    }
  }
  for (const key of existing.keys()) {
    if (wanted.has(key) || !key.startsWith('sync:')) continue;
    await queue.removeJobScheduler(key);
    result.removed.push(key);
  }
  return result;
}
