import type { TransferInDetail, TransferInLine } from '../../api/records/index.ts';
import { diffFields, pickChanges } from '../changes.ts';
import { episodeMarker } from '../episode.ts';
import { stableHash } from '../eventId.ts';
import { createdDraft, type EventDraft, makeEvent, statusChangedDraft, subjectKey } from '../makeEvent.ts';
import type { EventRule, FieldChange } from '../types.ts';
import { latestInstant, upstreamInstant } from '../upstreamTime.ts';

/** Transfer-IN events (from IN detail): created, status_changed (statusCode), received (a line's qtyReceived rises). */
export const transferInRule: EventRule<TransferInDetail> = (previous, current, ctx) => {
  const changes = diffFields(previous, current, ['header']);
  if (previous && changes.length === 0) return [];
  const header = current.header;
  const key = subjectKey(header.supplierId ?? ctx.scope, header.orderNumber);
  const base = { kind: 'transfer_in' as const, key, current, previous };
  const status = header.statusCode ?? null;
  const drafts: EventDraft[] = [];
  if (!previous) {
    const createdAt = upstreamInstant(header.creationDate, ctx) ?? upstreamInstant(header.submittedDate, ctx);
    drafts.push(createdDraft(base, 'transfer_in.created', createdAt, changes));
  } else if ((previous.header.statusCode ?? null) !== status) {
    const updatedAt = upstreamInstant(header.lastUpdateDate, ctx);
    // A status can be reached again: the header's lastUpdateDate names the episode if it moved.
    const episode = episodeMarker(upstreamInstant(previous.header.lastUpdateDate, ctx), updatedAt, ctx);
    const move = { from: previous.header.statusCode, to: status, episode };
    const statusChanges = pickChanges(changes, ['header.statusCode', 'header.statusName']);
    drafts.push(statusChangedDraft(base, 'transfer_in.status_changed', move, updatedAt, statusChanges));
  }
  const received = receivedChanges(previous?.lineItems ?? [], current.lineItems ?? []);
  if (received.changes.length > 0) {
    drafts.push({
      ...base,
      type: 'transfer_in.received',
      // qtyReceived only rises, so the received quantities of all lines name the transition.
      transition: stableHash(received.totals),
      occurredAt: latestInstant(
        received.lines.map((line) => line.lastUpdateDate),
        ctx,
      ),
      changes: received.changes,
    });
  }
  return drafts.map((draft) => makeEvent(draft, ctx));
};

/** Lines whose qtyReceived rose (a line first seen counts from 0), as `lineItems[<lineNumber>].qtyReceived` changes. */
function receivedChanges(
  previous: readonly TransferInLine[],
  current: readonly TransferInLine[],
): { changes: FieldChange[]; lines: TransferInLine[]; totals: Array<[string, number]> } {
  const before = new Map(previous.map((line) => [lineId(line), line.qtyReceived ?? 0]));
  const changes: FieldChange[] = [];
  const lines: TransferInLine[] = [];
  const totals: Array<[string, number]> = [];
  for (const line of current) {
    const id = lineId(line);
    const now = line.qtyReceived ?? 0;
    const was = before.get(id) ?? 0;
    totals.push([id, now]);
    if (now > was) {
      changes.push({ field: `lineItems[${id}].qtyReceived`, from: was, to: now });
      lines.push(line);
    }
  }
  totals.sort(([a], [b]) => a.localeCompare(b));
  return { changes, lines, totals };
}

function lineId(line: TransferInLine): string {
  return String(line.lineNumber ?? line.sku ?? '');
}
