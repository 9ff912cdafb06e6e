import type { PoolClient } from 'pg';
import { disableAfterOutcomes } from './outcomeDisables.ts';
import type { OutcomeRecord } from './outcomeRecord.ts';
import { outcomeRows, outcomesSql } from './outcomeSql.ts';
import { pauseAfter, pauseEndpoint } from './pause.ts';

/** Stores outcomes; resolves once they are committed. */
export type RecordOutcome = (record: OutcomeRecord) => Promise<void>;

interface Waiting {
  record: OutcomeRecord;
  resolve: () => void;
  reject: (error: Error) => void;
}

/**
 * Stores outcomes with a group commit: outcomes that finish while a commit is under way wait for
 * the next one and go in together, in one transaction of a few statements whatever their number.
 * At a few hundred attempts a second this is what keeps Postgres round trips from setting the
 * pace. Each outcome's promise settles with its own result (see writeOutcomes): one that cannot be
 * stored never costs another its recorded outcome.
 */
export function createOutcomeRecorder(db: { connect(): Promise<PoolClient> }): RecordOutcome {
  let waiting: Waiting[] = [];
  let draining = false;
  const drain = async () => {
    draining = true;
    while (waiting.length > 0) {
      const batch = waiting;
      waiting = [];
      const errors = await writeOutcomes(
        db,
        batch.map((entry) => entry.record),
      );
      for (const [i, entry] of batch.entries()) settle(entry, errors[i]);
    }
    draining = false;
  };
  return (record) =>
    new Promise<void>((resolve, reject) => {
      waiting.push({ record, resolve, reject });
      if (!draining) void drain();
    });
}

/** The one place an outcome is known to be stored (or not): its sender carries on from here. */
function settle(entry: Waiting, error: Error | undefined): void {
  if (error) entry.reject(error);
  else entry.resolve();
}

/**
 * Commits outcomes together (outcomeSql.ts: attempt rows, each delivery's next state, each
 * endpoint's health by its latest outcome), with the disables and the Retry-After pauses they ask
 * for. Outcomes of an endpoint removed meanwhile are left out. When Postgres refuses the group for
 * one row (a value or constraint it rejects, a deadlock), each outcome is written again on its own,
 * so only that row fails. Returns, per record, the error that kept it from being stored.
 */
export async function writeOutcomes(
  db: { connect(): Promise<PoolClient> },
  records: readonly OutcomeRecord[],
): Promise<Array<Error | undefined>> {
  if (records.length === 0) return [];
  try {
    await writeGroup(db, records);
    return records.map(() => undefined);
  } catch (error) {
    if (records.length === 1 || !isRowLevel(error)) return records.map(() => error as Error);
  }
  const errors: Array<Error | undefined> = [];
  for (const record of records) {
    errors.push(
      await writeGroup(db, [record]).then(
        () => undefined,
        (error: Error) => error,
      ),
    );
  }
  return errors;
}

/** One outcome, stored on its own; throws when it cannot be. */
export async function writeOutcome(
  db: { connect(): Promise<PoolClient> },
  record: OutcomeRecord,
): Promise<void> {
  const [error] = await writeOutcomes(db, [record]);
  if (error) throw error;
}

/**
 * Refusals that come from the rows written, not from the connection or the server: data and
 * integrity errors (classes 22, 23), program limits (54) and a deadlock or serialization failure
 * between group commits (40). Written one by one, the other rows of the group land.
 */
function isRowLevel(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && ['22', '23', '40', '54'].includes(code.slice(0, 2));
}

/**
 * One group in one transaction. Usually every attempt succeeded and nothing asked for a pause or a
 * disable: then the one statement, atomic on its own, is the whole write.
 */
async function writeGroup(
  db: { connect(): Promise<PoolClient> },
  records: readonly OutcomeRecord[],
): Promise<void> {
  const paused = pauses(records);
  const disabling = records.some((r) => r.verdict.disableReason);
  const alone = paused.size === 0 && !disabling;
  const client = await db.connect();
  try {
    if (!alone) await client.query('BEGIN');
    await client.query(outcomesSql(records), [outcomeRows(records)]);
    if (disabling) await disableAfterOutcomes(client, records);
    for (const [endpointId, until] of paused) await pauseEndpoint(client, endpointId, until);
    if (!alone) await client.query('COMMIT');
  } catch (error) {
    if (!alone) await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** The longest pause each endpoint asked for in the batch. Pure. */
function pauses(records: readonly OutcomeRecord[]): Map<string, Date> {
  const until = new Map<string, Date>();
  for (const record of records) {
    const at = pauseAfter(record.result, record.attemptedAt);
    const current = until.get(record.endpoint.id);
    if (at && (!current || at > current)) until.set(record.endpoint.id, at);
  }
  return until;
}
