import type { FulfillmentClient } from '../api/fulfillmentClient.ts';
import type { ConsumerAddress, OrderDetail } from '../api/records/index.ts';
import {
  ORDER_ADDRESS_ROLES,
  orderAddresses,
  orderHolds,
  orderLines,
  orderMessages,
  orders,
} from '../db/schema/orders.ts';
import { listChild, recordRow, snakeOf } from '../sync/rows.ts';
import type { DetailSpec, Row, RowContext, StreamDefinition, Window } from '../sync/types.ts';
import { holdKey, messageKey } from './childKeys.ts';
import { detailOutcome } from './detailCall.ts';

/**
 * orders: Orders/Detail for the orders that changed shipments and returns named (queued in
 * `sync.detail_requests`, one row per account and order, so names deduplicate; a user asks for
 * more by queueing them with reason 'user'). A request is removed in the transaction that stores
 * its order, so a failed run keeps it; a failing order is retried with backoff.
 */

type Client = Pick<FulfillmentClient, 'getOrderDetail'>;

/** One order detail with the key it was asked for (the header's own numbers may be null). */
export interface OrderRecord {
  orderNumber: string;
  detail: OrderDetail;
}

/** Requests served per run: bounds one transaction; the rest wait for the next run. */
export const ORDER_REQUESTS_PER_RUN = 500;

const KEY = ['account_number', 'order_number'] as const;
const LINE_KEY = ['account_number', 'order_number', 'line_number', 'component_number'] as const;
const HOLD_KEY = ['account_number', 'order_number', 'hold_key'] as const;
const MESSAGE_KEY = ['account_number', 'order_number', 'message_key'] as const;
const ADDRESS_KEY = ['account_number', 'order_number', 'role', 'position'] as const;

const JSON_MEMBERS = [
  'packages',
  'contents',
  'trackings',
  'notes',
  'billings',
  'accountPayableHeaders',
  'accountPayableLines',
] as const;

/** The due requests of the account: one window each run. */
export function planOrderWindows(input: { now: Date }): Window[] {
  return [{ kind: 'filter', start: input.now, end: input.now, filter: { source: 'requests' } }];
}

/**
 * One order's detail by its number. One order that fails (not found, invalid, failing after
 * retries) is a detail failure, retried on later runs with backoff and quarantined after too many
 * attempts; it never fails the others or the window.
 */
const fetchOrder: DetailSpec<OrderRecord, Client>['fetch'] = ({ client, scope, key }) =>
  detailOutcome(
    () => client.getOrderDetail(scope.id, key),
    (detail) => ({ orderNumber: key, detail }),
  );

/** The orders row: the header's columns, the undetailed members whole, `raw` the whole detail. */
export function orderRow(record: OrderRecord, ctx: RowContext): Row {
  const overrides: Row = {
    account_number: ctx.scope.id,
    order_number: record.orderNumber,
    raw: record.detail,
  };
  for (const member of JSON_MEMBERS) overrides[snakeOf(member)] = record.detail[member] ?? null;
  return recordRow(orders, record.detail.header, ctx, { key: KEY, overrides });
}

function parentOf(record: OrderRecord, ctx: RowContext): Row {
  return { account_number: ctx.scope.id, order_number: record.orderNumber };
}

/** Address rows of every role, by position within the role's array. */
export function addressRows(record: OrderRecord, ctx: RowContext): Row[] {
  const members: Record<(typeof ORDER_ADDRESS_ROLES)[number], ConsumerAddress[] | null | undefined> = {
    sold_to: record.detail.soldToConsumers,
    ship_to: record.detail.shipToConsumers,
    deliver_to: record.detail.deliverToConsumers,
  };
  return ORDER_ADDRESS_ROLES.flatMap((role) =>
    (members[role] ?? []).map((address, position) =>
      recordRow(orderAddresses, address, ctx, {
        key: ADDRESS_KEY,
        overrides: { ...parentOf(record, ctx), role, position },
      }),
    ),
  );
}

/** The orders stream (docs/configuration.md, streams). */
export const ordersStream: StreamDefinition<OrderRecord, Client> = {
  name: 'orders',
  scopeKind: 'account',
  subjectKind: 'order',
  planWindows: planOrderWindows,
  // No list: every order is a due request the detail stage fetches by key (at most 500 a run).
  fetchWindow: async () => ({ records: [], rejected: [], apiCalls: 0 }),
  entity: {
    table: orders,
    key: KEY,
    row: orderRow,
    children: [
      listChild({
        table: orderLines,
        key: LINE_KEY,
        parentKey: KEY,
        items: (record) => record.detail.lineItems,
        columns: (record, _line, ctx) => parentOf(record, ctx),
      }),
      listChild({
        table: orderHolds,
        key: HOLD_KEY,
        parentKey: KEY,
        items: (record) => record.detail.holds,
        columns: (record, hold, ctx) => ({ ...parentOf(record, ctx), hold_key: holdKey(hold, ctx) }),
      }),
      listChild({
        table: orderMessages,
        key: MESSAGE_KEY,
        parentKey: KEY,
        items: (record) => record.detail.messages,
        columns: (record, m, ctx) => ({ ...parentOf(record, ctx), message_key: messageKey(m, ctx) }),
      }),
      { table: orderAddresses, key: ADDRESS_KEY, parentKey: KEY, rows: addressRows },
    ],
  },
  // Requests are deleted in the transaction that stores their order; a failed one waits its backoff.
  details: {
    key: (record) => record.orderNumber,
    limit: ORDER_REQUESTS_PER_RUN,
    has: () => true,
    followDue: () => true,
    fetch: fetchOrder,
  },
  eventRecords: (change) => ({
    previous: change.previousRow?.raw ?? null,
    current: change.record?.detail ?? change.row.raw,
  }),
};
