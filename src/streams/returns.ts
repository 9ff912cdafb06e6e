import { RETURN_STATUS_CODES, type ReturnLine, type ShipmentReturn } from '../api/records/index.ts';
import { returnLines, returns } from '../db/schema/returns.ts';
import { planRereadDays } from '../sync/plan.ts';
import { recordRow } from '../sync/rows.ts';
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
 * lists has moved on, so it is fetched again by its order number.
 */
export const returnsStream: StreamDefinition<ShipmentReturn, StreamClient> = {
  name: 'returns',
  scopeKind: 'account',
  subjectKind: 'return',
  planWindows: ({ cursor, start, now, settings, timezone }) => [
    ...planRereadDays({
      cursor: cursor.position,
      start,
      now,
      timezone,
      rereadDays: settings.rereadDays,
      windowSize: settings.windowSize,
    }),
    { ...OPEN_RETURNS_WINDOW, start: now, end: now },
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
      {
        table: returnLines,
        key: LINE_KEY,
        parentKey: ['ship_return_id'],
        rows: (record, ctx) =>
          (record.lineItems ?? []).map((line: ReturnLine) =>
            recordRow(returnLines, line, ctx, {
              key: LINE_KEY,
              overrides: { ship_return_id: record.shipReturnId },
            }),
          ),
      },
    ],
  },
  afterWrite: async ({ tx, scope, changes }) => {
    await requestOrderDetails(
      tx,
      scope.id,
      changes.map((c) => c.record?.orderNumber),
      'return',
    );
    return undefined;
  },
};

async function fetchOpenReturns(
  args: FetchArgs<StreamClient> & { window: Window },
): Promise<FetchResult<ShipmentReturn>> {
  const { client, scope, db } = args;
  const out: FetchResult<ShipmentReturn> = { records: [], rejected: [], apiCalls: 0 };
  for (const statusCode of OPEN_STATUSES) {
    const answer = await client.listReturns({ accountNumber: scope.id, statusCode });
    out.records.push(...answer.records);
    out.rejected.push(...answer.rejected);
    out.apiCalls += 1;
  }
  const seen = new Set(out.records.map((r) => r.shipReturnId));
  const stored = await db.query(
    `SELECT ship_return_id, order_number FROM fulfillment.returns
     WHERE account_number = $1 AND processing_status_code IS DISTINCT FROM 'RESOLVED'`,
    [scope.id],
  );
  const left = (
    stored.rows as Array<{ ship_return_id: string | number; order_number: string | null }>
  ).filter((r) => !seen.has(Number(r.ship_return_id)));
  const wanted = new Set(left.map((r) => Number(r.ship_return_id)));
  const orders = [...new Set(left.map((r) => r.order_number).filter((n): n is string => !!n))];
  for (const orderNumber of orders) {
    const answer = await client.listReturns({ accountNumber: scope.id, orderNumber });
    out.apiCalls += 1;
    out.records.push(...answer.records.filter((r) => wanted.has(r.shipReturnId)));
    out.rejected.push(...answer.rejected);
  }
  return out;
}
