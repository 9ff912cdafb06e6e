COMMENT ON COLUMN "sync"."webhook_endpoints"."event_types" IS 'Event types to send, and families as patterns (''shipment.*'' sends every shipment type, also ones added later), as given to webhooks add|update --types; empty means all.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."webhook_endpoints"."account_numbers" IS 'Scope filter (webhooks add|update --accounts): only events of these accounts (those of the account streams: shipments, orders, returns, invoices) or of supplier_ids are sent; both empty: events of every scope.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."webhook_endpoints"."supplier_ids" IS 'Scope filter (webhooks add|update --suppliers): only events of these suppliers (those of the supplier streams: products, inventory, inventory activity, transfers) or of account_numbers are sent; both empty: events of every scope.';
