import type { FulfillmentClient } from '../api/fulfillmentClient.ts';
import {
  type TransferInDetail,
  type TransferInHeader,
  type TransferInLine,
  type TransferInNote,
  transferInListRowSchema,
} from '../api/records/index.ts';
import { transferInLines, transferInNotes, transfersIn } from '../db/schema/transfersIn.ts';
import { tableInfo } from '../sync/columns.ts';
import { rereadDayWindows } from '../sync/plan.ts';
import { detailOnlyColumns, listChild, recordOfRow, recordRow, storedRecord } from '../sync/rows.ts';
import type {
  DetailSpec,
  FetchArgs,
  FetchResult,
  PlanInput,
  RecordChange,
  RejectedRecord,
  Row,
  RowContext,
  StreamDefinition,
  Window,
} from '../sync/types.ts';
import { wireDayBounds } from '../sync/wireBounds.ts';
import { noteKey } from './childKeys.ts';
import { detailOutcome } from './detailCall.ts';
import { coveredWhere, OPEN_WINDOW_FILTER, openPartQuery, splitOpenWindow } from './transferInParts.ts';

/**
 * transfers_in: list calls by submitted date re-reading `rereadDays` (90), plus one window reading
 * every open status (PROCESSING, DRAFT, SUBMITTED). Detail (header extras, lines, notes) is fetched
 * for rows whose list columns changed, before the write. A stored IN that is open but no longer in
 * any open list (closed or cancelled, maybe too old for the date re-read, maybe never submitted)
 * is fetched again by its key in the open window, so it is followed until it closes (once a second
 * read confirms that a list which lost many INs really did: confirmShrink.ts); so is any IN whose
 * earlier detail call failed (the detail queue, retried with backoff).
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
/** Columns only the detail fills (header extras, detail_raw, detail_fetched_at): rows.ts's rule. */
export const DETAIL_ONLY_COLUMNS: readonly string[] = detailOnlyColumns(transfersIn, LIST_FIELDS);

export { OPEN_WINDOW_FILTER };

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

/**
 * The parent row: list columns from a list row; every column from a detailed record, whose
 * `detail_fetched_at` is the run's time (never compared: a fetch time is not a change).
 */
export function transferInRow(record: TransferInRecord, ctx: RowContext): Row {
  const overrides: Row = {
    supplier_id: ctx.scope.id,
    // The list part, built the same way from a list row and from a detail: equal records have
    // equal content hashes (the hash reads `raw` as JSON, member order included).
    raw: pickList(record.header),
  };
  if (!record.detailed)
    return recordRow(transfersIn, record.header, ctx, { key: KEY, overrides, omit: DETAIL_ONLY_COLUMNS });
  const row = recordRow(transfersIn, record.header, ctx, {
    key: KEY,
    overrides: { ...overrides, detail_raw: record.header },
  });
  return { ...row, detail_fetched_at: ctx.now };
}

/** The key columns every child row takes from its IN. */
function parentOf(record: TransferInRecord, ctx: RowContext): Row {
  return { supplier_id: ctx.scope.id, order_number: record.header.orderNumber };
}

/** One IN's detail by its order number; one that fails is a detail failure (detailCall.ts). */
const fetchDetail: DetailSpec<TransferInRecord, Client>['fetch'] = ({ client, scope, key }) =>
  detailOutcome(
    () => client.getTransferInDetail(scope.id, key),
    (detail) => ({ ...detail, detailed: true }),
  );

/**
 * The open window (or one part of it, transferInParts.ts): its open statuses, and the stored open
 * INs the part covers that it did not list (they left it), as `absent`: once the engine confirmed
 * them (confirmShrink.ts) `followLeft` names them for the detail stage to fetch by key (unless their
 * detail is backing off); the part that carries `followDue` also has the INs whose detail is due
 * again after a failure fetched by key.
 */
async function fetchOpen({
  client,
  scope,
  db,
  window,
  timezone,
}: FetchArgs<Client>): Promise<FetchResult<TransferInRecord>> {
  const records: TransferInRecord[] = [];
  const rejected: RejectedRecord[] = [];
  const repaired: RejectedRecord[] = [];
  let apiCalls = 0;
  const { statusCodes, ...narrower } = openPartQuery(window);
  for (const statusCode of statusCodes) {
    const answer = await client.listTransfersIn({ supplierId: scope.id, statusCode, ...narrower });
    apiCalls += 1;
    rejected.push(...answer.rejected);
    repaired.push(...(answer.repaired ?? []));
    for (const header of answer.records) records.push({ header, detailed: false });
  }
  const listed = records.map((r) => r.header.orderNumber);
  const covered = coveredWhere(window, timezone, 3);
  const stored = await db.query<{ order_number: string; listed: boolean }>(
    `SELECT order_number, order_number = ANY($2::text[]) AS listed FROM ${tableInfo(transfersIn).qualified}
      WHERE supplier_id = $1 AND ${covered.sql}`,
    [scope.id, listed, ...covered.params],
  );
  const missing = stored.rows.filter((r) => !r.listed).map((r) => r.order_number);
  return { records, rejected, repaired, apiCalls, absent: { held: stored.rows.length, missing } };
}

/** The open INs that left their list, confirmed: fetched by key in the detail stage. */
async function followLeft(
  _args: FetchArgs<Client>,
  result: FetchResult<TransferInRecord>,
  gone: readonly string[],
): Promise<FetchResult<TransferInRecord>> {
  return { ...result, byKey: [...gone] };
}

/**
 * What the event rules compare: the IN with its lines. The previous lines come from the warehouse;
 * a list row whose detail failed keeps them as current too, so it can announce a status change
 * but no receipt it cannot see.
 */
function transferInEventRecords(change: RecordChange<TransferInRecord>): {
  previous: unknown;
  current: unknown;
} {
  const storedLines = (change.previousChildren?.[tableInfo(transferInLines).name] ?? []).map(recordOfRow);
  const previous = change.previousRow
    ? { header: storedRecord(change.previousRow), lineItems: storedLines }
    : null;
  const record = change.record;
  if (!record) return { previous, current: null };
  const current: Omit<TransferInDetail, 'notes'> & { notes?: unknown } = record.detailed
    ? { header: record.header, lineItems: record.lineItems ?? [], notes: record.notes ?? [] }
    : { header: record.header, lineItems: storedLines as TransferInLine[] };
  return { previous, current };
}

/** The transfers_in stream (docs/configuration.md, streams). */
export const transfersInStream: StreamDefinition<TransferInRecord, Client> = {
  name: 'transfers_in',
  scopeKind: 'supplier',
  subjectKind: 'transfer_in',
  planWindows: planTransfersInWindows,
  splitWindow: splitOpenWindow,
  followGone: followLeft,
  fetchWindow: async (args) => {
    if (args.window.kind === 'filter') return fetchOpen(args);
    const answer = await args.client.listTransfersIn({
      supplierId: args.scope.id,
      ...wireDayBounds(args.window, args.timezone),
    });
    return {
      records: answer.records.map((header) => ({ header, detailed: false })),
      rejected: answer.rejected,
      repaired: answer.repaired ?? [],
      apiCalls: 1,
    };
  },
  entity: {
    table: transfersIn,
    key: KEY,
    row: transferInRow,
    hasChildren: (record) => record.detailed,
    children: [
      listChild({
        table: transferInLines,
        key: LINE_KEY,
        parentKey: PARENT,
        items: (record) => record.lineItems,
        columns: (record, line, ctx) => ({ ...parentOf(record, ctx), line_number: line.lineNumber ?? 0 }),
      }),
      listChild({
        table: transferInNotes,
        key: NOTE_KEY,
        parentKey: PARENT,
        items: (record) => record.notes,
        columns: (record, note, ctx) => ({ ...parentOf(record, ctx), note_key: noteKey(note, ctx) }),
      }),
    ],
  },
  details: {
    key: (record) => record.header.orderNumber,
    limit: 500,
    has: (record) => record.detailed,
    followDue: (window) => Boolean(window.filter?.followDue),
    fetch: fetchDetail,
  },
  eventRecords: transferInEventRecords,
};
