import type { Invoice } from '../../api/records/index.ts';
import { diffFields, pickChanges } from '../changes.ts';
import { episodeMarker, inEpisode } from '../episode.ts';
import { createdDraft, type EventDraft, makeEvent } from '../makeEvent.ts';
import type { EventRule } from '../types.ts';
import { upstreamInstant } from '../upstreamTime.ts';

const BALANCE_FIELDS = ['balanceDue', 'paymentsReceived', 'totalInvoiceAmount'];

/** Invoice events: created, balance_changed (balanceDue changes), paid (balanceDue reaches 0). */
export const invoiceRule: EventRule<Invoice> = (previous, current, ctx) => {
  const changes = diffFields(previous, current);
  if (previous && changes.length === 0) return [];
  const base = { kind: 'invoice' as const, key: current.invoiceNumber, current, previous };
  const balance = current.balanceDue ?? null;
  const before = previous ? (previous.balanceDue ?? null) : null;
  // A balance can repeat a change or reach 0 again (an adjustment reopens a paid invoice). The
  // record has no update time and no balance history, so detectedAt tells the episodes apart.
  const episode = episodeMarker(undefined, undefined, ctx);
  const drafts: EventDraft[] = [];
  if (!previous) {
    drafts.push(createdDraft(base, 'invoice.created', upstreamInstant(current.invoiceDate, ctx), changes));
  } else if (before !== balance) {
    drafts.push({
      ...base,
      type: 'invoice.balance_changed',
      transition: inEpisode(`${before ?? ''}>${balance ?? ''}`, episode),
      // The payment time is not in the record; the invoice date would be wrong here.
      occurredAt: undefined,
      changes: pickChanges(changes, BALANCE_FIELDS),
    });
  }
  // First seen already paid counts as paid (the terminal-state rule), but a zero-amount invoice
  // that was never owed anything is not "paid".
  const reachedZero = balance === 0 && (previous ? before !== 0 : (current.totalInvoiceAmount ?? 0) !== 0);
  if (reachedZero) {
    drafts.push({
      ...base,
      type: 'invoice.paid',
      transition: inEpisode('paid', episode),
      occurredAt: undefined,
      changes: pickChanges(changes, BALANCE_FIELDS),
    });
  }
  return drafts.map((draft) => makeEvent(draft, ctx));
};
