import { RETURN_STATUS_CODES, type ShipmentReturn } from '../api/records/index.ts';
import { returnLines, returns } from '../db/schema/returns.ts';
import { rereadDayWindows } from '../sync/plan.ts';
import { listChild, recordRow } from '../sync/rows.ts';
import type { FetchArgs, FetchResult, StreamDefinition, Window } from '../sync/types.ts';
import { wireDayBounds } from '../sync/wireBounds.ts';
import type { StreamClient } from './client.ts';
import { requestOrderDetails } from './orderRequests.ts';

const KEY = ['ship_return_id'] as const;
const LINE_KEY = ['ship_return_id', 'line_number', 'component_number'] as const;
const OPEN_STATUSES = RETURN_STATUS_CODES.filter((s) => s !== 'RESOLVED');

/** The window that follows open returns, however old: by status, then by key for those that left. */
export const OPEN_RETURNS_WINDOW = { kind: 'filter', filter: { open: 'returns' } } as const;

/**
 * Shipments/Returns per account: day windows re-reading the last 30 days, plus one window that
 * re-reads every open (not RESOLVED) return by status; a stored open return missing from those
 * lists has moved on, so it is fetched again by its order number, or by its tracking number when it
 * has none; one with neither is counted in a warning (it cannot be looked up).
 */
export const returnsStream: StreamDefinition<ShipmentReturn, StreamClient> = {
  name: 'returns',
  scopeKind: 'account',
  subjectKind: 'return',
  planWindows: (input) => [
    ...rereadDayWindows(input),
    { ...OPEN_RETURNS_WINDOW, start: input.now, end: input.now },
  ],
  fetchWindow: async (args) => {
    if (args.window.kind === 'filter') return fetchOpenReturns(args);
    const answer = await args.client.listReturns({
      accountNumber: args.scope.id,
      ...wireDayBounds(args.window, args.timezone),
    });
    return { ...answer, apiCalls: 1 };
  },
  entity: {
    table: returns,
    key: KEY,
    row: (record, ctx) =>
      recordRow(returns, record, ctx, { key: KEY, overrides: { account_number: ctx.scope.id, raw: record } }),
    children: [
      listChild({
        table: returnLines,
        key: LINE_KEY,
        parentKey: ['ship_return_id'],
        items: (record) => record.lineItems,
        columns: (record) => ({ ship_return_id: record.shipReturnId }),
      }),
    ],
  },
  afterWrite: async ({ tx, scope, changes }) => {
    await requestOrderDetails(
      tx,
      scope.id,
      changes.map((c) => c.record?.orderNumber),
      'return',
    );
  },
};

async function fetchOpenReturns(
  args: FetchArgs<StreamClient> & { window: Window },
): Promise<FetchResult<ShipmentReturn>> {
  const { client, scope, db } = args;
  const out: FetchResult<ShipmentReturn> = { records: [], rejected: [], repaired: [], apiCalls: 0 };
  for (const statusCode of OPEN_STATUSES) {
    const answer = await client.listReturns({ accountNumber: scope.id, statusCode });
    out.records.push(...answer.records);
    out.rejected.push(...answer.rejected);
    out.repaired?.push(...(answer.repaired ?? []));
    out.apiCalls += 1;
  }
  const seen = new Set(out.records.map((r) => r.shipReturnId));
  const stored = await db.query<StoredOpenReturn>(
    `SELECT ship_return_id, order_number, tracking_number FROM fulfillment.returns
     WHERE account_number = $1 AND processing_status_code IS DISTINCT FROM 'RESOLVED'`,
    [scope.id],
  );
  const left = stored.rows.filter((r) => !seen.has(Number(r.ship_return_id)));
  const wanted = new Set(left.map((r) => Number(r.ship_return_id)));
  const { lookups, unfollowable } = followUpLookups(left);
  for (const lookup of lookups) {
    const answer = await client.listReturns({ accountNumber: scope.id, ...lookup });
    out.apiCalls += 1;
    out.records.push(...answer.records.filter((r) => wanted.has(r.shipReturnId)));
    out.rejected.push(...answer.rejected);
    out.repaired?.push(...(answer.repaired ?? []));
  }
  if (unfollowable.length > 0) {
    out.warnings = [
      {
        message:
          'open returns left the status lists and have neither order number nor tracking number: they stay open in the warehouse until upstream lists them again',
        data: { unfollowableReturns: unfollowable.length, shipReturnIds: unfollowable.slice(0, 20) },
      },
    ];
  }
  return out;
}

type StoredOpenReturn = {
  ship_return_id: string | number;
  order_number: string | null;
  tracking_number: string | null;
};

/**
 * How to re-read open returns that left the status lists: by order number, else (no order number,
 * e.g. returns not tied to an order) by tracking number; returns with neither cannot be followed.
 */
export function followUpLookups(left: readonly StoredOpenReturn[]): {
  lookups: Array<{ orderNumber: string } | { trackingNumber: string }>;
  unfollowable: string[];
} {
  const orderNumbers = new Set<string>();
  const trackingNumbers = new Set<string>();
  const unfollowable: string[] = [];
  for (const r of left) {
    if (r.order_number) orderNumbers.add(r.order_number);
    else if (r.tracking_number) trackingNumbers.add(r.tracking_number);
    else unfollowable.push(String(r.ship_return_id));
  }
  return {
    lookups: [
      ...[...orderNumbers].map((orderNumber) => ({ orderNumber })),
      ...[...trackingNumbers].map((trackingNumber) => ({ trackingNumber })),
    ],
    unfollowable,
  };
}
