import type { Queryable } from '../../db/queryable.ts';
import {
  EndpointSettingError,
  parseMetadata,
  parseRateLimit,
} from '../../webhooks/endpoints/endpointSettings.ts';
import { getEndpoint, updateEndpoint } from '../../webhooks/endpoints/endpoints.ts';
import type { Resolve } from '../../webhooks/endpoints/safeLookup.ts';
import type { TargetPolicy } from '../../webhooks/endpoints/targetPolicy.ts';
import { type AttemptFilter, listAttemptLog } from '../../webhooks/views/attemptLog.ts';
import { endpointStats, STATS_WINDOW_MS } from '../../webhooks/views/endpointStats.ts';
import { attemptTable, attemptView } from './attemptTable.ts';
import { type ConfiguredScopes, unconfiguredScopeNotes } from './scopeNotes.ts';
import { endpointLines, endpointView, statsLine, statsView } from './webhookViews.ts';

type Print = (line: string) => void;

/** An endpoint, event or other id the user named that does not exist: one line, exit 1. */
export class NotFoundError extends Error {
  override name = 'NotFoundError';
}

const noEndpoint = (id: string) => new NotFoundError(`No endpoint ${id}: see \`webhooks list\`.`);

/** `webhooks get <id> [--json]`: every setting of one endpoint, the secret masked. */
export async function webhooksGet(
  db: Queryable,
  id: string,
  print: Print,
  options: { json?: boolean | undefined } = {},
  now: Date = new Date(),
): Promise<void> {
  const endpoint = await getEndpoint(db, id);
  if (!endpoint) throw noEndpoint(id);
  const view = endpointView(endpoint, now);
  if (options.json) print(JSON.stringify(view));
  else for (const line of endpointLines(view)) print(line);
}

/** What `webhooks update` was given on the command line (raw: checked here, before anything is stored). */
export interface UpdateOptions {
  url?: string | undefined;
  eventTypes?: string[] | undefined;
  accountNumbers?: string[] | undefined;
  supplierIds?: string[] | undefined;
  description?: string | undefined;
  headerArguments?: string[] | undefined;
  rateLimit?: string | undefined;
  metadata?: string | undefined;
}

/**
 * `webhooks update <id> ...`: changes the given settings in place (the secret, the enabled state
 * and the delivery history stay) and prints the endpoint as stored. Needs at least one setting.
 */
export async function webhooksUpdate(
  db: Queryable,
  id: string,
  options: UpdateOptions,
  print: Print,
  target: { policy: TargetPolicy; resolve?: Resolve },
  configured?: ConfiguredScopes,
  now: Date = new Date(),
): Promise<void> {
  const given = Object.values(options).some((value) => value !== undefined);
  if (!given) {
    throw new EndpointSettingError(
      'update needs at least one of --url, --types, --accounts, --suppliers, --description, --header, --rate-limit, --metadata.',
    );
  }
  const updated = await updateEndpoint(
    db,
    id,
    {
      url: options.url,
      eventTypes: options.eventTypes,
      accountNumbers: options.accountNumbers,
      supplierIds: options.supplierIds,
      description: options.description,
      headerArguments: options.headerArguments,
      rateLimitPerSecond: options.rateLimit === undefined ? undefined : parseRateLimit(options.rateLimit),
      metadata: options.metadata === undefined ? undefined : parseMetadata(options.metadata),
    },
    target,
  );
  if (!updated) throw noEndpoint(id);
  if (updated.note) print(`note: ${updated.note}`);
  if (configured) for (const note of unconfiguredScopeNotes(updated, configured)) print(note);
  print(`updated ${id} (secret and delivery history kept):`);
  for (const line of endpointLines(endpointView(updated, now))) print(`  ${line}`);
}

/** `webhooks attempts [filters] [--json]`: recorded attempts, newest first. */
export async function webhooksAttempts(
  db: Queryable,
  filter: AttemptFilter,
  print: Print,
  options: { json?: boolean | undefined } = {},
): Promise<void> {
  if (filter.endpointId && !(await getEndpoint(db, filter.endpointId))) throw noEndpoint(filter.endpointId);
  const entries = await listAttemptLog(db, filter);
  if (entries.length === 0 && filter.eventId && !(await eventExists(db, filter.eventId))) {
    throw new NotFoundError(`No event ${filter.eventId} in sync.events (see \`events tail\`).`);
  }
  if (options.json) {
    print(JSON.stringify(entries.map(attemptView)));
    return;
  }
  if (entries.length === 0) print('No attempts match.');
  for (const line of attemptTable(entries)) print(line);
}

/** `webhooks stats [--endpoint ID] [--since T] [--json]`: delivery figures per endpoint. */
export async function webhooksStats(
  db: Queryable,
  filter: { endpointId?: string | undefined; since?: Date | undefined },
  print: Print,
  options: { json?: boolean | undefined } = {},
  now: Date = new Date(),
): Promise<void> {
  const since = filter.since ?? new Date(now.getTime() - STATS_WINDOW_MS);
  const stats = await endpointStats(db, { endpointId: filter.endpointId, since });
  if (filter.endpointId && stats.length === 0) throw noEndpoint(filter.endpointId);
  if (options.json) {
    print(JSON.stringify(stats.map(statsView)));
    return;
  }
  if (stats.length === 0) print('No webhook endpoints. Add one with `webhooks add <url>`.');
  else print(`since ${since.toISOString()}:`);
  for (const entry of stats) print(statsLine(entry));
}

async function eventExists(db: Queryable, id: string): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM sync.events WHERE id = $1', [id]);
  return rows.length > 0;
}
