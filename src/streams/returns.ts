import { RETURN_STATUS_CODES, type ShipmentReturn } from '../api/records/index.ts';
import { returnLines, returns } from '../db/schema/returns.ts';
import { rereadDayWindows } from '../sync/plan.ts';
import { listChild, recordEntity } from '../sync/rows.ts';
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
 * lists has moved on (once a second read confirms that lists which lost many really did:
 * confirmShrink.ts), so it is fetched again by its order number, or by its tracking number when it
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
  followGone: followLeftReturns,
  fetchWindow: async (args) => {
    if (args.window.kind === 'filter') return fetchOpenReturns(args);
    const answer = await args.client.listReturns({
      accountNumber: args.scope.id,
      ...wireDayBounds(args.window, args.timezone),
    });
    return { ...answer, apiCalls: 1 };
  },
  entity: {
    ...recordEntity(returns, KEY, (record, ctx) => ({ account_number: ctx.scope.id, raw: record })),
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

/** The open statuses' lists, and the stored open returns they no longer name (`absent`). */
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
  const seen = new Set(out.records.map((r) => String(r.shipReturnId)));
  const stored = await storedOpenReturns(db, scope.id);
  const missing = stored.map((r) => String(r.ship_return_id)).filter((id) => !seen.has(id));
  return { ...out, absent: { held: stored.length, missing } };
}

/** The account's stored returns that are not RESOLVED (of `ids` only, when given). */
async function storedOpenReturns(
  db: FetchArgs<StreamClient>['db'],
  accountNumber: string,
  ids?: readonly string[],
): Promise<StoredOpenReturn[]> {
  const res = await db.query<StoredOpenReturn>(
    `SELECT ship_return_id, order_number, tracking_number FROM fulfillment.returns
     WHERE account_number = $1 AND processing_status_code IS DISTINCT FROM 'RESOLVED'
       AND ($2::bigint[] IS NULL OR ship_return_id = ANY($2::bigint[]))`,
    [accountNumber, ids ?? null],
  );
  return res.rows;
}

/**
 * The open returns that left the status lists, once their absence is confirmed (confirmShrink.ts):
 * looked up by order number, or by tracking number when they have none; one with neither is
 * counted in a warning (it cannot be looked up).
 */
async function followLeftReturns(
  args: FetchArgs<StreamClient>,
  result: FetchResult<ShipmentReturn>,
  gone: readonly string[],
): Promise<FetchResult<ShipmentReturn>> {
  const { client, scope, db } = args;
  const out: FetchResult<ShipmentReturn> = {
    ...result,
    records: [...result.records],
    rejected: [...result.rejected],
    repaired: [...(result.repaired ?? [])],
  };
  const left = await storedOpenReturns(db, scope.id, gone);
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
      ...(out.warnings ?? []),
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
