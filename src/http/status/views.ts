import { html, raw } from 'hono/html';
import { formatDuration } from '../../cli/status/statusTable.ts';
import { FRESHNESS_ORDER, type Freshness, freshnessOf } from './freshness.ts';
import type { EndpointRow, EventRow, StatusSnapshot, StreamRow } from './readModel.ts';
import { STATUS_STYLE } from './style.ts';

/**
 * The status page's HTML: pure functions of a snapshot, every value escaped by hono's `html` tag
 * (what the upstream or a receiver sent, an error message, a URL). No script: tables that turn
 * into cards on a narrow screen (style.ts), and a refresh every 30 seconds.
 */

type Html = ReturnType<typeof html>;

/** `4m`: how long from `from` to `to`. */
function span(from: Date, to: Date): string {
  return formatDuration(Math.max(0, Math.round((to.getTime() - from.getTime()) / 1000)));
}

/** `4m ago`, or `never`. */
function ago(date: Date | null, at: Date): string {
  return date ? `${span(date, at)} ago` : 'never';
}

/** An ISO time to the second, in UTC: the exact value behind a relative one (hover). */
function exact(date: Date | null): string {
  return date ? `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC` : '';
}

/** A table cell labelled for the card layout of narrow screens (its content in one box beside the label). */
function cell(label: string, content: unknown, title = ''): Html {
  return html`<td data-label="${label}" title="${title}"><span class="v">${content}</span></td>`;
}

function table(caption: string, headers: readonly string[], rows: readonly Html[], empty: string): Html {
  if (rows.length === 0) return html`<p class="empty">${empty}</p>`;
  return html`<table class="cards">
<caption>${caption}</caption>
<thead><tr>${headers.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead>
<tbody>
${rows}
</tbody>
</table>`;
}

const STATE_TEXT: Record<Freshness['state'], string> = {
  never: 'never synced',
  stale: 'stale',
  behind: 'behind',
  fresh: 'fresh',
  'on-demand': 'on demand',
};

/** `45s of 60s target`, `12m of 15m cadence`. */
function freshnessText(row: StreamRow, freshness: Freshness): string {
  const age = freshness.ageSeconds === null ? 'no data' : formatDuration(freshness.ageSeconds);
  if (row.rule.kind === 'on-demand') return age;
  return `${age} of ${formatDuration(row.rule.seconds)} ${row.rule.kind}`;
}

function streamRow(row: StreamRow, freshness: Freshness, at: Date): Html {
  const error = row.lastError
    ? html`<span class="error">${row.lastError}</span> <small>${ago(row.lastErrorAt, at)}</small>`
    : '—';
  return html`<tr class="state-${freshness.state}">
${cell('Stream', row.stream)}${cell('Scope', row.scope)}
${cell('Freshness', html`<span class="badge">${STATE_TEXT[freshness.state]}</span> ${freshnessText(row, freshness)}`)}
${cell('Last success', ago(row.lastSuccessAt, at), exact(row.lastSuccessAt))}
${cell('Last error (24 h)', error, exact(row.lastErrorAt))}
${cell('Withheld vanishes', row.vanishWithheld === null ? '—' : row.vanishWithheld)}
</tr>`;
}

/** Streams x scopes, worst first, with a line counting each state. */
export function streamsSection(snapshot: Pick<StatusSnapshot, 'streams' | 'streamsNotShown' | 'at'>): Html {
  const judged = snapshot.streams.map((row) => ({
    row,
    f: freshnessOf(row.rule, row.lastSuccessAt, snapshot.at),
  }));
  judged.sort(
    (a, b) =>
      FRESHNESS_ORDER.indexOf(a.f.state) - FRESHNESS_ORDER.indexOf(b.f.state) ||
      a.row.stream.localeCompare(b.row.stream) ||
      a.row.scope.localeCompare(b.row.scope),
  );
  const counts = FRESHNESS_ORDER.map(
    (state) => [state, judged.filter((j) => j.f.state === state).length] as const,
  )
    .filter(([, n]) => n > 0)
    .map(([state, n]) => `${n} ${STATE_TEXT[state]}`)
    .join(', ');
  const more = snapshot.streamsNotShown
    ? html`<p class="note">${snapshot.streamsNotShown} more not shown: <code>fulfillment-sync status</code> lists them all.</p>`
    : '';
  return html`<section id="streams">
<h2>Streams</h2>
<p class="summary">${counts || 'nothing scheduled'}. Freshness: the age of the data (since the last successful read) against the target or cadence; stale past three of it, when the alert fires.</p>
${table(
  'Streams by scope',
  ['Stream', 'Scope', 'Freshness', 'Last success', 'Last error (24 h)', 'Withheld vanishes'],
  judged.map(({ row, f }) => streamRow(row, f, snapshot.at)),
  'No stream is scheduled: set FULFILLMENT_SUPPLIER_IDS or FULFILLMENT_ACCOUNT_NUMBERS.',
)}
${more}
</section>`;
}

/** `healthy`, `failing for 20m`, `paused 2m (Retry-After)`, `disabled: receiver answered 410 Gone`. */
export function endpointHealth(row: EndpointRow, at: Date): { text: string; state: string } {
  if (!row.enabled) {
    const text =
      row.disabledBy === 'operator'
        ? 'disabled by an operator'
        : `disabled: ${row.disabledReason ?? 'failed deliveries'}`;
    return { text, state: 'disabled' };
  }
  if (row.failingSince) return { text: `failing for ${span(row.failingSince, at)}`, state: 'failing' };
  if (row.pausedUntil)
    return { text: `paused for ${span(at, row.pausedUntil)} (Retry-After)`, state: 'paused' };
  return { text: 'healthy', state: 'healthy' };
}

function endpointRow(row: EndpointRow, at: Date): Html {
  const health = endpointHealth(row, at);
  const backlog =
    row.pending === 0 || !row.oldestPendingAt
      ? String(row.pending)
      : `${row.pending}, oldest ${span(row.oldestPendingAt, at)}`;
  const rate = row.successRate24h === null ? '—' : `${Math.round(row.successRate24h * 1000) / 10}%`;
  return html`<tr class="health-${health.state}">
${cell('Endpoint', html`<code>${row.id}</code><br><small>${row.url}</small>`)}
${cell('Health', html`<span class="badge">${health.text}</span>`, exact(row.failingSince))}
${cell('Backlog', backlog)}
${cell('p95 (24 h)', row.p95Ms24h === null ? '—' : `${row.p95Ms24h} ms`)}
${cell('Success (24 h)', `${rate} of ${row.attempts24h}`)}
${cell('Last success', ago(row.lastSuccessAt, at), exact(row.lastSuccessAt))}
</tr>`;
}

export function endpointsSection(snapshot: Pick<StatusSnapshot, 'endpoints' | 'relay' | 'at'>): Html {
  const { relay, at } = snapshot;
  const relayLine =
    relay.undispatched === 0
      ? 'The relay has handed every event to the endpoints.'
      : `The relay has ${relay.undispatched} event(s) to hand to the endpoints, the oldest detected ${ago(relay.oldestDetectedAt, at)}.`;
  return html`<section id="endpoints">
<h2>Webhook endpoints</h2>
<p class="summary">${relayLine}</p>
${table(
  'Webhook endpoints',
  ['Endpoint', 'Health', 'Backlog', 'p95 (24 h)', 'Success (24 h)', 'Last success'],
  snapshot.endpoints.map((row) => endpointRow(row, at)),
  'No webhook endpoint: add one with `fulfillment-sync webhooks add <url>`.',
)}
</section>`;
}

/** Where an event stands with its subscribers. */
export function eventDelivery(row: EventRow): string {
  if (row.suppressed) return 'history: stored, not sent';
  if (!row.dispatchedAt) return 'waiting for the relay';
  const parts = [
    row.delivered ? `${row.delivered} delivered` : '',
    row.pending ? `${row.pending} pending` : '',
    row.gaveUp ? `${row.gaveUp} gave up` : '',
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : 'no endpoint wanted it';
}

function eventRow(row: EventRow, at: Date): Html {
  return html`<tr>
${cell('Detected', ago(row.detectedAt, at), exact(row.detectedAt))}
${cell('Type', html`<code>${row.type}</code>`)}
${cell('Subject', row.subject)}
${cell('Stream', row.stream ? `${row.stream} ${row.scope ?? ''}` : '—')}
${cell('Changed', ago(row.occurredAt, at), exact(row.occurredAt))}
${cell('Delivery', eventDelivery(row))}
</tr>`;
}

export function eventsSection(snapshot: Pick<StatusSnapshot, 'events' | 'at'>): Html {
  return html`<section id="events">
<h2>Latest events</h2>
<p class="summary">The newest events sent to subscribers. A first load's or a backfill's events are history, stored and not sent: <code>fulfillment-sync events</code> lists them.</p>
${table(
  'Latest events, newest first',
  ['Detected', 'Type', 'Subject', 'Stream', 'Changed', 'Delivery'],
  snapshot.events.map((row) => eventRow(row, snapshot.at)),
  'No event to send yet: events come from changes a sync sees after its first load.',
)}
</section>`;
}

/** The whole page. */
export function statusPage(snapshot: StatusSnapshot, links: { queues?: string | undefined } = {}): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="30">
<title>fulfillment-sync status</title>
<style>${raw(STATUS_STYLE)}</style>
</head>
<body>
<header>
<h1>fulfillment-sync status</h1>
<p class="note">As of ${exact(snapshot.at)}; refreshes every 30 s.${links.queues ? html` <a href="${links.queues}">Job queues</a>` : ''}</p>
</header>
<main>
${streamsSection(snapshot)}
${endpointsSection(snapshot)}
${eventsSection(snapshot)}
</main>
</body>
</html>`;
}

/** The page when Postgres cannot be read: no detail (an error may name a host); /readyz says more. */
export function unavailablePage(): Html {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="10"><title>fulfillment-sync status</title><style>${raw(STATUS_STYLE)}</style></head>
<body><h1>fulfillment-sync status</h1><p class="error">The status cannot be read from Postgres right now; /readyz says which dependency is away. This page tries again every 10 s.</p></body></html>`;
}
