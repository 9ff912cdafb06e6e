import type { Queryable } from '../db/queryable.ts';
import { EVENT_COLUMNS, type EventRow, eventFromRow } from './eventRow.ts';
import type { DerivedEvent } from './types.ts';

/** One stored event as its webhook body carries it (`events get`), or undefined when there is none. */
export async function readEvent(db: Queryable, id: string): Promise<DerivedEvent | undefined> {
  const { rows } = await db.query<EventRow & Record<string, unknown>>(
    `SELECT ${EVENT_COLUMNS} FROM sync.events WHERE id = $1`,
    [id],
  );
  return rows[0] ? eventFromRow(rows[0]) : undefined;
}
