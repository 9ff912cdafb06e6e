import type { TableText } from './tables.ts';

/** Comments of the `sync` tables (the worker's own state), keyed `schema.table`. */
export const SYNC_TABLES: Readonly<Record<string, TableText>> = {
  'sync.pii_key': {
    text: 'The secret key of the PII masking (one row): the views of schema fulfillment_masked give reader roles HMAC-SHA-256 hashes keyed with it, so nobody who cannot read schema sync can hash a guessed e-mail or name to match. `migrate` writes 64 random bytes when the row is missing. Replacing the key changes every masked value at once (consistently, since masking happens at query time); deleting it makes them all null until the next migrate.',
    columns: {
      id: 'Always 1: there is one key.',
      key: 'The HMAC key (at least 32 bytes; migrate writes 64 random bytes).',
      created_at: 'When the key was written.',
    },
  },
  'sync.cursors': {
    text: 'Where each stream and scope has read up to; advanced only in the transaction that stores the rows it covers. Key: stream, scope.',
    columns: {
      position_at: 'Time-window streams: the end of the last window stored successfully.',
      position: 'Stream-specific resume state (JSON).',
      last_success_at:
        "When this stream and scope last read successfully (the run's clock): every stored window moves it, one that found nothing new too.",
      last_polled_at:
        'Wall clock of the last stored window, whether or not it changed anything (equal to its sync.runs.finished_at when it wrote one): a poll that finds nothing new writes no sync.runs row, only this and last_success_at. Null before the first, and for cursors last moved before this column existed.',
      last_run_id: 'The sync.runs row of the last successful run.',
      last_run:
        'What the last run did, as JSON: calls (upstream calls, its cycle cost), windows stored, at (when a run last did otherwise: a run like the one before writes nothing here; last_polled_at says when it ran).',
    },
  },
  'sync.runs': {
    text: 'The run log: one row per stream x scope x window run that changed something, failed, quarantined, withheld or noted anything, with counts and outcome; a window that found nothing new (an empty poll) writes none and leaves its success on sync.cursors (last_success_at, last_polled_at). Pruned after RETENTION_RUNS_DAYS (30), except the last row of each stream and scope and the last successful run its cursor names.',
    columns: {
      id: 'Run id.',
      mode: "'incremental' (scheduled or sync --once) or 'backfill'.",
      lease_fence:
        'Fence of the lease the run held (sync.stream_leases): shared by the windows of one run, never by two runs of a stream and scope.',
      started_at:
        "When the window's fetch started. A run fetches its next window while the previous one commits, so rows with the same lease_fence can overlap in time; rows with different fences never do.",
      status:
        "'succeeded', 'partial' (some records quarantined, or detail calls failed and will be retried) or 'failed'. 'running' and 'skipped' are allowed but not written: a window's row is written once it is stored or has failed, and a run that finds another run holding the stream's lease writes none.",
      events: 'Events written to the outbox by this run.',
      vanish_withheld:
        "Rows an unconfirmed shrink kept: the answer would have zeroed or closed them (it omitted much of what the scope holds), or deleted them (a detail answer omitting a record's stored children: lines, holds, notes), no further read agreed, so they stay as stored and the next run decides. 0 otherwise.",
      api_calls: 'Upstream API calls made by this run.',
      error: 'Error text of a failed run.',
      details: 'What the run decided on the way (window splits, detail failures, warnings), as JSON.',
    },
  },
  'sync.rejected_records': {
    text: 'Upstream records the engine could not store as received: quarantined, repaired, or with a detail that kept failing. Their siblings still landed; a quarantined record or a failed detail marks the run partial. One row per problem: a record re-read with the same problem updates its row. Pruned RETENTION_REJECTED_DAYS (90) after it was last seen.',
    columns: {
      id: 'Rejected record id.',
      record_key: 'The natural key, when it could be read from the record.',
      reason: 'Why the record was rejected or what was repaired, as last seen.',
      raw: 'The record as last received (repaired values as stored; an unstorable record as a summary).',
      rejected_at: 'When the problem was first seen.',
      kind: "'quarantined' (not stored, its siblings were), 'repaired' (stored with a value Postgres cannot hold removed or replaced) or 'detail' (its detail kept failing).",
      fingerprint:
        'Hash of kind, record key and reason with its numbers masked (a quoted value that moves is the same problem); of kind, reason and the record itself when the key cannot be read. The same problem seen again updates this row.',
      occurrences: 'How many times runs saw this problem.',
      last_seen_at: 'When a run last saw it.',
      run_id: 'The sync.runs row that last saw it.',
    },
  },
  'sync.events': {
    text: 'Derived events (each type in docs/events.md), the outbox written in the same transaction as the change. Also announced with pg_notify(fulfillment_events, id). Pruned after RETENTION_EVENTS_DAYS (90) once dispatched or suppressed and pending delivery to no endpoint, with its delivery states and attempts.',
    columns: {
      id: 'Deterministic id derived from the dedupe key (type, subject, transition): a re-run never emits twice.',
      seq: 'Insertion order, for tailing (not a delivery high-water mark: values commit out of order).',
      type: 'Event type, e.g. shipment.delivered.',
      subject_kind:
        'Kind of record the event is about: shipment, order, return, inventory, transfer_in, transfer_out, invoice.',
      subject_key: 'Natural key of that record.',
      occurred_at: 'Upstream time of the change where the record carries one, else detected_at.',
      detected_at: 'When the sync saw the change.',
      data: 'Payload: {current, previous, changes}.',
      stream: 'Stream whose run derived it.',
      scope: 'Scope of that run.',
      run_id: 'The sync.runs row that derived it.',
      suppressed: 'From a first load or a backfill: stored but not delivered unless asked for.',
      dispatched_at: 'When the relay handed it to the webhook endpoints; null while pending.',
    },
  },
  'sync.webhook_endpoints': {
    text: 'Where derived events are sent (Standard Webhooks), managed by fulfillment-sync webhooks add|list|get|update|remove|enable|disable|test|rotate-secret.',
    columns: {
      id: 'Endpoint id.',
      url: 'http(s) URL the events are POSTed to (redirects are not followed).',
      description: 'Free text of the operator (webhooks add|update --description).',
      event_types:
        "Event types to send, and families as patterns ('shipment.*' sends every shipment type, also ones added later), as given to webhooks add|update --types; empty means all.",
      account_numbers:
        'Scope filter (webhooks add|update --accounts): only events of these accounts (those of the account streams: shipments, orders, returns, invoices) or of supplier_ids are sent; both empty: events of every scope.',
      supplier_ids:
        'Scope filter (webhooks add|update --suppliers): only events of these suppliers (those of the supplier streams: products, inventory, inventory activity, transfers) or of account_numbers are sent; both empty: events of every scope.',
      secret: 'Signing secret whsec_<base64> (never logged).',
      previous_secret:
        'The secret before the last webhooks rotate-secret: deliveries are signed with both until previous_secret_expires_at, then it is dropped.',
      previous_secret_expires_at: 'When previous_secret stops signing (24 hours after the rotation).',
      enabled: 'Whether events are sent to it.',
      disabled_reason: 'Why it was disabled (410 Gone, failing for days, by hand).',
      disabled_by:
        "Who disabled it: 'failure' (a 410 Gone, or days of failed deliveries) or 'operator' (webhooks disable); null while enabled.",
      metadata: 'Free key/values of the operator (webhooks update --metadata), a JSON object; never sent.',
      headers:
        'Extra request headers sent with every delivery, a JSON object of name -> value (webhooks update --header); never the signature headers or content-type.',
      failing_since: 'Start of the current run of failed deliveries; null while healthy.',
      rate_limit_per_second:
        'Most delivery attempts started per second to this endpoint, across all workers (bursts up to one second of them); null: no limit.',
      max_concurrency:
        'Most delivery attempts in flight to this endpoint at once, across all workers; null: WEBHOOK_ENDPOINT_CONCURRENCY (default 10).',
      paused_until:
        'No attempt to this endpoint starts before this time: set from the Retry-After of a 429 or 503 answer; null or past: not paused.',
      next_send_at:
        'Pacing of rate_limit_per_second: attempts start once the clock is past it (kept by the worker); null: none sent under a limit yet.',
    },
  },
  'sync.webhook_endpoint_disablements': {
    text: 'Each period an endpoint was disabled: the relay sent it nothing then; webhooks recover re-sends what those periods missed. The newest 50 per endpoint are kept.',
    columns: {
      id: 'Period id.',
      endpoint_id: 'The endpoint.',
      disabled_by: "'failure' (a 410 Gone, or days of failed deliveries) or 'operator' (webhooks disable).",
      reason: 'Why, as shown by webhooks list.',
      disabled_at: 'When it was disabled.',
      enabled_at: 'When it was enabled again; null while it is still disabled.',
    },
  },
  'sync.webhook_deliveries': {
    text: 'Every attempt to deliver an event to an endpoint. Pruned after RETENTION_DELIVERIES_DAYS (30), and with its event.',
    columns: {
      id: 'Delivery attempt id.',
      endpoint_id: 'The endpoint.',
      event_id: 'The event (its id is also the webhook-id header).',
      series:
        "Which series of attempts: '' for the delivery the relay started, replay_<id> for webhooks replay, recover_<id> for webhooks recover.",
      attempt: 'Attempt number, from 1.',
      status: "'pending', 'succeeded' (2xx), 'failed' (will be retried) or 'gave_up'.",
      response_code: 'HTTP status of the response; null when none came.',
      duration_ms: 'Duration of the request in milliseconds.',
      error: 'Network or timeout error text.',
      response_body: 'The response body, truncated.',
      attempted_at: 'When the attempt was made.',
      next_attempt_at: 'When the next attempt is due (pending rows).',
    },
  },
  'sync.webhook_delivery_states': {
    text: 'Where each delivery of an event to an endpoint stands (one row per endpoint, event and series): the durable state of pending attempts, which each worker claims (a lease) within the concurrency and rate limits of its endpoint. Pruned with its event (never while pending). Key: endpoint_id, event_id, series.',
    columns: {
      endpoint_id: 'The endpoint.',
      event_id: 'The event (its id is also the webhook-id header).',
      series:
        "'' for the delivery the relay started, replay_<id> for webhooks replay, recover_<id> for webhooks recover.",
      status:
        "'pending' (an attempt is due at next_attempt_at), 'succeeded', 'gave_up' (attempts exhausted or endpoint disabled by its failures) or 'skipped' (endpoint disabled by hand, or already delivered).",
      attempts_made: 'Attempts made so far (each is a row of sync.webhook_deliveries).',
      max_attempts:
        'Attempts allowed in all; null: as many as the retry schedule has (10 on the Standard Webhooks schedule).',
      next_attempt_at: 'When the next attempt is due; null once finished.',
      lease_until:
        'A worker sending the next attempt holds it until then; another may take it over after (the sender died).',
      last_error:
        'Why the last attempt failed or the delivery was skipped; never a response body or a secret.',
    },
  },
  'sync.backfill_windows': {
    text: 'Finished windows of backfills: running the same backfill again skips them. Pruned after RETENTION_BACKFILL_WINDOWS_DAYS (90). Key: backfill_id, stream, scope, window_start, window_end.',
    columns: { run_id: 'The sync.runs row that read the window.' },
  },
  'sync.detail_requests': {
    text: 'Records whose detail a stream still has to fetch: orders named by changed shipments and returns, INs and products whose detail call failed. Retried with backoff, quarantined after too many attempts; a quarantined request is pruned RETENTION_REJECTED_DAYS (90) after its quarantine, so the record is asked for again when a change names it. Key: stream, scope, record_key.',
    columns: {
      stream: "The stream that fetches the detail: 'orders', 'transfers_in' or 'products'.",
      scope: 'Account number (orders) or supplier id (transfers_in, products).',
      record_key: 'The record to fetch: an order number, an IN order number or a SKU.',
      reason:
        "What asked for it: 'shipment', 'return', 'user', 'detail-failed', or 'children-withheld' (a detail answer omitted stored children no second read confirmed gone: they stayed, the next run reads it again).",
      requested_at:
        'When the record was last named; a request named again while being fetched is kept for the next run.',
      attempts: 'Failed detail calls so far.',
      next_attempt_at: 'Not fetched again before this time (backoff after a failure); null means due now.',
      last_error: 'Why the last attempt failed.',
      quarantined_at:
        'When attempts ran out: the record is in sync.rejected_records and is no longer fetched.',
    },
  },
  'sync.stream_leases': {
    text: 'Which run holds each stream and scope: a lease renewed while the run works, with a fencing token its write transaction checks, so two runs never write the same stream and scope. Key: stream, scope.',
    columns: {
      stream: 'Stream name.',
      scope: 'Supplier id or account number.',
      holder: 'Random id of the run holding the lease.',
      fence: 'Increases with every new holder; a write commits only under its own fence.',
      expires_at: 'When the lease lapses unless renewed (a crashed run frees it this way).',
      acquired_at: 'When the current holder took it.',
    },
  },
};
