import pino from 'pino';
import { loadConfig } from '../../src/config/loadConfig.ts';
import { createEventSink } from '../../src/events/sink.ts';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import type { SyncSnapshot } from './analyticsTruth.ts';
import { createTestDatabase, type TestDatabase } from './db.ts';
import { simulatorClient, syncEveryScope } from './syncHarness.ts';

const HOUR = 3_600_000;

export interface SimulatedWeekOptions {
  seed: number;
  /** Simulated days synced, ending at the last full hour before the real now. */
  days: number;
  /** Days of history the world has before them (the install reads them back). */
  historyDays: number;
  /** Hours between two syncs. */
  stepHours: number;
  winesPerSupplier: number;
  /** Runs after each sync (e.g. a refresh). */
  afterSync?: (t: TestDatabase) => Promise<void>;
}

/** A database synced from a one-supplier simulated world as the worker would, step by step. */
export interface SimulatedWeek {
  t: TestDatabase;
  sim: RunningSimulator;
  /** What the truth held at each sync. */
  syncs: SyncSnapshot[];
  close: () => Promise<void>;
}

/**
 * Syncs every stream and scope of a manual-clock simulator every `stepHours` over `days`, the
 * install reading back over the world's whole history (inventory activity included), so that the
 * days it ends with are the real last days (queries relative to current_date select them).
 */
export async function syncSimulatedWeek(options: SimulatedWeekOptions): Promise<SimulatedWeek> {
  const { days, historyDays, stepHours } = options;
  const start = new Date(Math.floor(Date.now() / HOUR) * HOUR - days * 24 * HOUR);
  const t = await createTestDatabase();
  const sim = await startSimulator({
    seed: options.seed,
    clock: 'manual',
    start,
    volume: { historyDays, suppliers: 1, winesPerSupplier: options.winesPerSupplier },
  });
  const close = async () => {
    await sim.close();
    await t.close();
  };
  try {
    const config = loadConfig({
      DATABASE_URL: t.url,
      FULFILLMENT_SYNC_START: new Date(start.getTime() - historyDays * 24 * HOUR).toISOString(),
      FULFILLMENT_STREAMS: JSON.stringify({
        transfers_in: { windowSize: 91 },
        returns: { windowSize: 31 },
        shipments: { windowSize: stepHours * 60 + 180 },
      }),
    });
    const client = simulatorClient(sim, config);
    const eventSink = createEventSink({ timezone: config.timezone, thresholds: config.events });
    const logger = pino({ level: 'silent' });
    const syncs: SyncSnapshot[] = [];
    for (let hour = 0; hour <= days * 24; hour += stepHours) {
      if (hour > 0) sim.advance(stepHours * 60);
      const failed = await syncEveryScope({ pool: t.pool, client, config, logger, sim, eventSink });
      if (failed.length > 0) throw new Error(`sync failed: ${failed.map((f) => f.error).join('; ')}`);
      syncs.push({ at: sim.clock.now(), inventory: sim.truth().ownedInventory });
      await options.afterSync?.(t);
    }
    return { t, sim, syncs, close };
  } catch (error) {
    await close();
    throw error;
  }
}
