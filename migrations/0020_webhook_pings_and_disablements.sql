-- Endpoints disabled before sync.webhook_endpoint_disablements existed: who disabled them, read from
-- the reason text the code wrote ('by hand' only ever came from `webhooks disable`), and an open
-- period from their last update, so `webhooks recover` and the disabled-by metric know them too.
UPDATE sync.webhook_endpoints
   SET disabled_by = CASE WHEN disabled_reason = 'by hand' THEN 'operator' ELSE 'failure' END
 WHERE NOT enabled AND disabled_by IS NULL;
--> statement-breakpoint
INSERT INTO sync.webhook_endpoint_disablements (endpoint_id, disabled_by, reason, disabled_at)
SELECT id, disabled_by, disabled_reason, updated_at FROM sync.webhook_endpoints WHERE NOT enabled;
--> statement-breakpoint
-- `webhooks test` pings are no longer stored: the old ones (type webhook.test, ids evt_ping_...) are
-- not derived events and no schema describes them. Their delivery rows go with them (ON DELETE CASCADE).
DELETE FROM sync.events WHERE type = 'webhook.test';
