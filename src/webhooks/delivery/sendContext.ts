import type { EventRow } from '../../events/eventRow.ts';
import type { Endpoint } from '../endpoints/endpoints.ts';

/** What sending a delivery reads before its attempt: its endpoint, its event, whether the pair already succeeded. */
export interface SendContext {
  endpoint(id: string): Promise<Endpoint | undefined>;
  event(id: string): Promise<EventRow | undefined>;
  delivered(key: { endpointId: string; eventId: string }): Promise<boolean>;
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
