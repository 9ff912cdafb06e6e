import type { Queryable } from '../db/queryable.ts';
import { EVENT_COLUMNS, type EventRow } from '../events/eventRow.ts';
import { pairDelivered } from './deliveryStates.ts';
import { type Endpoint, getEndpoint } from './endpoints.ts';

/** What sending a delivery reads before its attempt: its endpoint, its event, whether the pair already succeeded. */
export interface SendContext {
  endpoint(id: string): Promise<Endpoint | undefined>;
  event(id: string): Promise<EventRow | undefined>;
  delivered(key: { endpointId: string; eventId: string }): Promise<boolean>;
}

/** Reads for one delivery at a time (a test ping, the in-process driver). */
export function singleSendContext(db: Queryable): SendContext {
  return {
    endpoint: (id) => getEndpoint(db, id),
    event: async (id) => {
      const { rows } = await db.query(`SELECT ${EVENT_COLUMNS} FROM sync.events WHERE id = $1`, [id]);
      return rows[0] as EventRow | undefined;
    },
    delivered: (key) => pairDelivered(db, key),
  };
}

/** What the claim read for a delivery (see claimDue). */
export function claimedContext(claimed: {
  endpoint: Endpoint | undefined;
  event: EventRow | undefined;
  delivered: boolean;
}): SendContext {
  return {
    endpoint: async () => claimed.endpoint,
    event: async () => claimed.event,
    delivered: async () => claimed.delivered,
  };
}
