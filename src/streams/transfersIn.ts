import type { FulfillmentClient } from '../api/fulfillmentClient.ts';
import {
  IN_OPEN_STATUS_CODES,
  type TransferInDetail,
  type TransferInHeader,
  type TransferInLine,
  type TransferInNote,
  transferInListRowSchema,
} from '../api/records/index.ts';
import { transferInLines, transferInNotes, transfersIn } from '../db/schema/transfersIn.ts';
import { tableInfo } from '../sync/columns.ts';
import { rereadDayWindows } from '../sync/plan.ts';
import { recordRow } from '../sync/rows.ts';
import type { FetchArgs, PlanInput, RejectedRecord, Row, StreamDefinition, Window } from '../sync/types.ts';
import { wireDayBounds } from '../sync/wireBounds.ts';
import { contentKey } from './contentKey.ts';

/**
 * transfers_in: list calls by submitted date re-reading `rereadDays` (90), plus one window reading
 * every open status (PROCESSING, DRAFT, SUBMITTED). Detail (header extras, lines, notes) is fetched
 * only for rows whose list columns changed (`enrich`). A stored IN that is open but no longer in
 * any open list (closed or cancelled, maybe too old for the date re-read, maybe never submitted)
 * is fetched again by its key in the open window, so it is followed until it closes.
 */

type Client = Pick<FulfillmentClient, 'listTransfersIn' | 'getTransferInDetail'>;

/** An IN as the stream carries it: a list row (detailed: false) or a full detail (detailed: true). */
export interface TransferInRecord {
  header: TransferInHeader;
  lineItems?: TransferInLine[] | null | undefined;
  notes?: TransferInNote[] | null | undefined;
  detailed: boolean;
}

const KEY = ['supplier_id', 'order_number'] as const;
const LINE_KEY = ['supplier_id', 'order_number', 'line_number'] as const;
const NOTE_KEY = ['supplier_id', 'order_number', 'note_key'] as const;
const PARENT = ['supplier_id', 'order_number'] as const;

/** The list-row members (spec 2.6): what a list call can tell, and what the diff compares. */
const LIST_FIELDS = Object.keys(transferInListRowSchema.shape);
/** Columns only the detail fills; left out of list-based rows so the diff ignores them. */
export const DETAIL_ONLY_COLUMNS = [
  'pickup_site_phone',
  'pickup_site_fax',
  'closed_date',
  'notification_status_code',
  'notification_status_name',
  'notification_status_message',
  'detail_fetched_at',
  'detail_raw',
] as const;

/** The window that reads every open status (and follows up the ones that left). */
export const OPEN_WINDOW_FILTER = { statusCodes: IN_OPEN_STATUS_CODES.join(',') };

/** Submitted-date day windows (re-read horizon) followed by the open-status window. */
export function planTransfersInWindows(input: PlanInput): Window[] {
  return [
    ...rereadDayWindows(input),
    { kind: 'filter', start: input.now, end: input.now, filter: OPEN_WINDOW_FILTER },
  ];
}

function pickList(header: TransferInHeader): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of LIST_FIELDS) if (f in header) out[f] = header[f];
  return out;
}

/** The detail-only columns of a detail header (merged into a changed list row). */
export function detailColumns(detail: TransferInDetail, ctx: Parameters<typeof recordRow>[2], at: Date): Row {
  const full = recordRow(transfersIn, detail.header, ctx, {
    overrides: { detail_raw: detail.header, detail_fetched_at: at },
  });
  const out: Row = {};
  for (const c of DETAIL_ONLY_COLUMNS) out[c] = full[c];
  return out;
}

/** The parent row: list columns from a list row; every column from a detail fetched by key. */
export function transferInRow(record: TransferInRecord, ctx: Parameters<typeof recordRow>[2]): Row {
  const overrides: Row = {
    supplier_id: ctx.scope.id,
    raw: record.detailed ? pickList(record.header) : record.header,
  };
  if (!record.detailed)
    return recordRow(transfersIn, record.header, ctx, { key: KEY, overrides, omit: DETAIL_ONLY_COLUMNS });
  // No `detail_fetched_at` here: a fetch time is not a change, and compared it would rewrite every
  // IN followed by key on every run. `enrich` stamps it on the detailed rows that did change.
  return recordRow(transfersIn, record.header, ctx, {
    key: KEY,
    overrides: { ...overrides, detail_raw: record.header },
    omit: ['detail_fetched_at'],
  });
}

async function fetchDetail(client: Client, supplierId: string, orderNumber: string) {
  const { record, rejected } = await client.getTransferInDetail(supplierId, orderNumber);
  return { detail: record, rejected };
}

/** The open window: every open status, then the stored open INs that none of them returned, by key. */
async function fetchOpen({ client, scope, db }: FetchArgs<Client>) {
  const records: TransferInRecord[] = [];
  const rejected: RejectedRecord[] = [];
  let apiCalls = 0;
  for (const statusCode of IN_OPEN_STATUS_CODES) {
    const answer = await client.listTransfersIn({ supplierId: scope.id, statusCode });
    apiCalls += 1;
    rejected.push(...answer.rejected);
    for (const header of answer.records) records.push({ header, detailed: false });
  }
  const listed = records.map((r) => r.header.orderNumber);
  const left = await db.query<{ order_number: string }>(
    `SELECT order_number FROM ${tableInfo(transfersIn).qualified}
      WHERE supplier_id = $1 AND status_code = ANY($2::text[]) AND NOT (order_number = ANY($3::text[]))`,
    [scope.id, [...IN_OPEN_STATUS_CODES], listed],
  );
  for (const { order_number } of left.rows) {
    const { detail, rejected: bad } = await fetchDetail(client, scope.id, order_number);
    apiCalls += 1;
    rejected.push(...bad);
    if (detail) records.push({ ...detail, detailed: true });
  }
  return { records, rejected, apiCalls };
}

// The hooks get no timezone; the fetch of the same window does (the engine passes one window object).
const zoneOf = new WeakMap<Window, string>();

/** The transfers_in stream (CONTRACT.md section 3). */
export const transfersInStream: StreamDefinition<TransferInRecord, Client> = {
  name: 'transfers_in',
  scopeKind: 'supplier',
  subjectKind: 'transfer_in',
  planWindows: planTransfersInWindows,
  fetchWindow: async (args) => {
    zoneOf.set(args.window, args.timezone);
    if (args.window.kind === 'filter') return fetchOpen(args);
    const answer = await args.client.listTransfersIn({
      supplierId: args.scope.id,
      ...wireDayBounds(args.window, args.timezone),
    });
    return {
      records: answer.records.map((header) => ({ header, detailed: false })),
      rejected: answer.rejected,
      apiCalls: 1,
    };
  },
  entity: {
    table: transfersIn,
    key: KEY,
    row: transferInRow,
    children: [
      {
        table: transferInLines,
        key: LINE_KEY,
        parentKey: PARENT,
        rows: (record, ctx) =>
          record.detailed
            ? (record.lineItems ?? []).map((line) =>
                recordRow(transferInLines, line, ctx, {
                  key: LINE_KEY,
                  overrides: {
                    supplier_id: ctx.scope.id,
                    order_number: record.header.orderNumber,
                    line_number: line.lineNumber ?? 0,
                  },
                }),
              )
            : [],
      },
      {
        table: transferInNotes,
        key: NOTE_KEY,
        parentKey: PARENT,
        rows: (record, ctx) =>
          record.detailed
            ? (record.notes ?? []).map((note) =>
                recordRow(transferInNotes, note, ctx, {
                  key: NOTE_KEY,
                  overrides: {
                    supplier_id: ctx.scope.id,
                    order_number: record.header.orderNumber,
                    note_key: contentKey([note.typeCode, note.noteTimestamp, note.noteText]),
                  },
                }),
              )
            : [],
      },
    ],
  },
  // Detail only for the rows whose list columns changed: their header extras join the parent row,
  // and the detailed record replaces the list row for children and events.
  enrich: async ({ client, scope, window, changes, records }) => {
    const timezone = zoneOf.get(window);
    if (!timezone) throw new Error('transfers_in: enrich ran for a window it did not fetch; this is a bug');
    let apiCalls = 0;
    const out: TransferInRecord[] = [];
    const at = new Date();
    const byOrder = new Map(changes.map((c) => [c.record?.header.orderNumber, c]));
    for (const record of records) {
      if (record.detailed) {
        const change = byOrder.get(record.header.orderNumber);
        if (change) change.row.detail_fetched_at = at;
        out.push(record);
        continue;
      }
      const { detail } = await fetchDetail(client, scope.id, record.header.orderNumber);
      apiCalls += 1;
      if (!detail) {
        out.push(record);
        continue;
      }
      const detailed: TransferInRecord = { ...detail, detailed: true };
      const change = byOrder.get(record.header.orderNumber);
      if (change) {
        Object.assign(change.row, detailColumns(detail, { scope, timezone }, at));
        change.record = detailed;
      }
      out.push(detailed);
    }
    return { records: out, apiCalls };
  },
};
