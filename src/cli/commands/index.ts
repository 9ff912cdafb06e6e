import { registerAnalyticsCommand } from './analytics.ts';
import { registerApiCommand } from './api.ts';
import { registerBackfillCommand } from './backfill.ts';
import { registerConfigCommand } from './config.ts';
import { registerDemoCommand } from './demo.ts';
import { registerEventsCommand } from './events.ts';
import { registerGrantReaderCommand } from './grantReader.ts';
import { registerMigrateCommand } from './migrate.ts';
import { registerPiiAuditCommand } from './piiAudit.ts';
import { registerPruneCommand } from './prune.ts';
import type { CommandRegistrar } from './registrar.ts';
import { registerSimulatorCommand } from './simulator.ts';
import { registerStatusCommand } from './status.ts';
import { registerSyncCommand } from './sync.ts';
import { registerWebhooksCommand } from './webhooks.ts';
import { registerWorkerCommand } from './worker.ts';

export type { CommandRegistrar } from './registrar.ts';

/** Every command of the CLI, in help order. To add one: a file in this folder and one line here. */
export const commands: readonly CommandRegistrar[] = [
  registerConfigCommand,
  registerMigrateCommand,
  registerGrantReaderCommand,
  registerPiiAuditCommand,
  registerSyncCommand,
  registerSimulatorCommand,
  registerWorkerCommand,
  registerBackfillCommand,
  registerStatusCommand,
  registerPruneCommand,
  registerAnalyticsCommand,
  registerDemoCommand,
  registerEventsCommand,
  registerWebhooksCommand,
  registerApiCommand,
];
