import type { ShipmentUpdate } from '../api/records/index.ts';
import { shipmentEvents, shipmentLines, shipments } from '../db/schema/shipments.ts';
import { trackingEventKey } from '../events/trackingEventKey.ts';
import { planLookbackMinutes } from '../sync/plan.ts';
import { listChild, recordRow } from '../sync/rows.ts';
import type { StreamDefinition } from '../sync/types.ts';
import { plannedWindowSize } from '../sync/windowSize.ts';
import { wireMinuteBounds } from '../sync/wireBounds.ts';
import type { StreamClient } from './client.ts';
import { requestOrderDetails } from './orderRequests.ts';

const KEY = ['container_id'] as const;
const LINE_KEY = ['container_id', 'line_number'] as const;
const EVENT_KEY = ['container_id', 'event_key'] as const;

/**
 * Shipments/Updates per account: minute windows from the cursor minus the lookback (late scans)
 * up to now. A shipment row keeps the whole record in `raw`, so a new line or tracking event makes
 * the record "changed" and its lines and events are replaced as a set. Changed shipments name
 * their order for the orders stream.
 */
export const shipmentsStream: StreamDefinition<ShipmentUpdate, StreamClient> = {
  name: 'shipments',
  scopeKind: 'account',
  subjectKind: 'shipment',
  planWindows: (input) =>
    planLookbackMinutes({
      cursor: input.cursor.position,
      start: input.start,
      now: input.now,
      lookbackMinutes: input.settings.lookbackMinutes,
      windowSize: plannedWindowSize(input),
    }),
  fetchWindow: async ({ client, scope, window, timezone }) => {
    const answer = await client.listShipmentUpdates({
      accountNumber: scope.id,
      ...wireMinuteBounds(window, timezone),
    });
    return { ...answer, apiCalls: 1 };
  },
  entity: {
    table: shipments,
    key: KEY,
    row: (record, ctx) =>
      recordRow(shipments, record.header, ctx, {
        key: KEY,
        overrides: { account_number: ctx.scope.id, raw: record },
      }),
    children: [
      listChild({
        table: shipmentLines,
        key: LINE_KEY,
        parentKey: ['container_id'],
        items: (record) => record.lineItems,
        columns: (record) => ({ container_id: record.header.containerId }),
      }),
      listChild({
        table: shipmentEvents,
        key: EVENT_KEY,
        parentKey: ['container_id'],
        items: (record) => record.events,
        columns: (record, event, ctx) => ({
          container_id: record.header.containerId,
          event_key: trackingEventKey(event, ctx),
        }),
      }),
    ],
  },
  afterWrite: async ({ tx, scope, changes }) => {
    const orders = changes.map((c) => c.record?.header.orderNumber);
    await requestOrderDetails(tx, scope.id, orders, 'shipment');
  },
};
