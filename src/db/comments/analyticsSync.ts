import type { TableText } from './tables.ts';

/** Comments of the worker's tables that keep schema analytics (readers cannot read them). */
export const ANALYTICS_SYNC_TABLES: Readonly<Record<string, TableText>> = {
  'sync.analytics_refreshes': {
    text: 'How far each table of schema analytics the worker keeps has been brought (src/analytics/refresh.ts), written by each refresh in its own transaction; readers see the safe part through analytics.freshness. One row per table, so bounded. Key: relation.',
    columns: {
      relation: 'The kept table, as schema.name (e.g. analytics.shipment_facts).',
      changed_at:
        'When the newest change its refreshes took in was queued (a sync changed its sources then).',
      refreshed_as_of:
        'Every change committed before this instant is in the table (or, for a table reading another kept table, before that one is): the start of its last refresh that left nothing queued. Its age is how stale the table can be.',
      source_data_as_of:
        "The upstream time its data is complete up to, as of refreshed_as_of: the least coverage of the streams it reads (the cursors' positions, or last successes) and of the kept tables it reads.",
      last_refresh_at:
        'When its last refresh ended (the next one is due a refresh interval later, sooner while changes are left).',
      last_duration_ms: 'How long its last successful refresh took, in milliseconds.',
      last_changes: 'Queued changes its last refresh took in.',
      pending_changes:
        'Queued changes left after its last refresh (a backlog taken in by the next ones); 0 when it caught up.',
      last_rebuild_at:
        'When it was last rebuilt whole (after an upgrade, a truncate, or `analytics rebuild`).',
      last_error: 'Error of the last failed refresh; cleared by a successful one.',
      last_error_at: 'When the last refresh failed.',
    },
  },
  'sync.analytics_changes': {
    text: 'What the kept tables of schema analytics still have to take in: a row per key a statement changed in a synced table (for each kept table it feeds), queued by triggers in the writing transaction, and by a refresh for the tables reading the one it refreshed. The refresh that takes a row in deletes it in the same transaction. Drained about every minute; a backlog beyond 2,000,000 rows is folded into one rebuild. Key: id.',
    columns: {
      id: 'Order of queuing (a refresh takes in the oldest first).',
      relation: 'The kept table that has to take it in (schema.name).',
      key: "The key it touches in that table's terms (a container, an order, an inventory row, a week, an account and day); null: rebuild the table whole.",
      from_at:
        'For the inventory tables: the instant from which the change matters (a version begun or closed, a day of activity); null: all of the row.',
      queued_at: 'When the change was queued (the start of the writing transaction).',
    },
  },
  'sync.analytics_inventory_coverage': {
    text: 'Per supplier, the earliest inventory activity day analytics.daily_inventory reconstructs from, as of its last refresh: when the history read reaches further back, every row of the supplier is reconstructed again. One row per supplier. Key: supplier_id.',
    columns: {
      supplier_id: 'Supplier id.',
      first_day: 'Its earliest fulfillment.inventory_activity day at the last refresh.',
    },
  },
};
