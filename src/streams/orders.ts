import { NonRetryableUpstreamError, UnauthorizedError } from '../api/errors.ts';
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
import { clearServedRequests, type DetailRequest, dueDetailRequests } from '../sync/detailRequests.ts';
import { recordRow } from '../sync/rows.ts';
import type { FetchArgs, RejectedRecord, Row, RowContext, StreamDefinition, Window } from '../sync/types.ts';
import { contentKey } from './contentKey.ts';

/**
 * orders: Orders/Detail for the orders that changed shipments and returns named (queued in
 * `sync.detail_requests`, one row per account and order, so names deduplicate), plus any
 * order numbers a caller lists (`orderNumbersWindow`). A request is removed in the transaction that
 * stores its order, so a failed run keeps it. Calls are paced by the client's rate limiter.
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

/** The queued requests of the account: one window each run. */
export function planOrderWindows(input: { now: Date }): Window[] {
  return [{ kind: 'filter', start: input.now, end: input.now, filter: { source: 'requests' } }];
}

/** A window for order numbers a user lists (`sync --stream orders`, backfills). */
export function orderNumbersWindow(orderNumbers: readonly string[], now: Date): Window {
  return { kind: 'filter', start: now, end: now, filter: { orderNumbers: orderNumbers.join(',') } };
}

/** An order to fetch, with its queued request when it came from one. */
interface Wanted {
  orderNumber: string;
  request?: DetailRequest;
}

// Which requests a window read, so that `afterWrite` can clear them (unchanged orders included,
// which the hooks' changes do not list). The engine passes one window object.
const servedBy = new WeakMap<Window, Wanted[]>();

async function wantedOrders({ scope, window, db }: FetchArgs<Client>): Promise<Wanted[]> {
  const listed = window.filter?.orderNumbers;
  if (listed !== undefined)
    return [...new Set(listed.split(',').filter((n) => n.length > 0))].map((orderNumber) => ({
      orderNumber,
    }));
  const due = await dueDetailRequests(db, 'orders', scope.id, window.end, ORDER_REQUESTS_PER_RUN);
  return due.map((r) => ({ orderNumber: r.recordKey, request: r }));
}

/**
 * One order's detail, or its quarantine: an answer that repeating cannot fix (404, `isSuccess:
 * false`, bad payload) becomes a rejected record keyed by the order number, so one broken order
 * does not fail the whole window on every run; its request is cleared with the others. Retryable
 * failures and rejected credentials (which break every order alike) still fail the window.
 */
async function fetchOrQuarantine(
  args: FetchArgs<Client>,
  orderNumber: string,
  index: number,
): Promise<Awaited<ReturnType<Client['getOrderDetail']>> | { quarantined: RejectedRecord }> {
  try {
    return await args.client.getOrderDetail(args.scope.id, orderNumber);
  } catch (error) {
    if (!(error instanceof NonRetryableUpstreamError) || error instanceof UnauthorizedError) throw error;
    // The engine stores `key` as sync.rejected_records.record_key.
    const quarantined: RejectedRecord & { key: string } = {
      index,
      key: orderNumber,
      reason: `order detail failed and was not retried: ${error.message}`,
      raw: { orderNumber, kind: error.kind, status: error.status ?? null },
    };
    return { quarantined };
  }
}

/** The orders row: the header's columns, the undetailed members whole, `raw` the whole detail. */
export function orderRow(record: OrderRecord, ctx: RowContext): Row {
  const overrides: Row = {
    account_number: ctx.scope.id,
    order_number: record.orderNumber,
    raw: record.detail,
  };
  for (const member of JSON_MEMBERS) overrides[snake(member)] = record.detail[member] ?? null;
  return recordRow(orders, record.detail.header, ctx, { key: KEY, overrides });
}

function snake(field: string): string {
  return field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
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

/** The orders stream (CONTRACT.md section 3). */
export const ordersStream: StreamDefinition<OrderRecord, Client> = {
  name: 'orders',
  scopeKind: 'account',
  subjectKind: 'order',
  planWindows: planOrderWindows,
  fetchWindow: async (args) => {
    const wanted = await wantedOrders(args);
    servedBy.set(args.window, wanted);
    const numbers = wanted.map((w) => w.orderNumber);
    const records: OrderRecord[] = [];
    const rejected: RejectedRecord[] = [];
    for (const [index, orderNumber] of numbers.entries()) {
      const answer = await fetchOrQuarantine(args, orderNumber, index);
      if ('quarantined' in answer) {
        rejected.push(answer.quarantined);
        continue;
      }
      rejected.push(...answer.rejected);
      if (answer.record) records.push({ orderNumber, detail: answer.record });
    }
    return { records, rejected, apiCalls: numbers.length };
  },
  entity: {
    table: orders,
    key: KEY,
    row: orderRow,
    children: [
      {
        table: orderLines,
        key: LINE_KEY,
        parentKey: KEY,
        rows: (record, ctx) =>
          (record.detail.lineItems ?? []).map((line) =>
            recordRow(orderLines, line, ctx, { key: LINE_KEY, overrides: parentOf(record, ctx) }),
          ),
      },
      {
        table: orderHolds,
        key: HOLD_KEY,
        parentKey: KEY,
        rows: (record, ctx) =>
          (record.detail.holds ?? []).map((hold) =>
            recordRow(orderHolds, hold, ctx, {
              key: HOLD_KEY,
              overrides: {
                ...parentOf(record, ctx),
                hold_key: contentKey([hold.holdName, hold.creationDate]),
              },
            }),
          ),
      },
      {
        table: orderMessages,
        key: MESSAGE_KEY,
        parentKey: KEY,
        rows: (record, ctx) =>
          (record.detail.messages ?? []).map((m) =>
            recordRow(orderMessages, m, ctx, {
              key: MESSAGE_KEY,
              overrides: {
                ...parentOf(record, ctx),
                message_key: contentKey([m.messageTime, m.messageType, m.message]),
              },
            }),
          ),
      },
      { table: orderAddresses, key: ADDRESS_KEY, parentKey: KEY, rows: addressRows },
    ],
  },
  // Served requests go in the same transaction as their orders: a failure keeps them queued.
  afterWrite: async ({ tx, scope, window }) => {
    if (window.filter?.source === 'requests')
      await clearServedRequests(
        tx,
        'orders',
        scope.id,
        (servedBy.get(window) ?? []).flatMap((w) => (w.request ? [w.request] : [])),
      );
    return undefined;
  },
};
