-- Child records without an id of their own (order holds and messages, IN notes, shipment tracking
-- events) were keyed by a hash of their members as sent, so one record sent in two spellings (a time
-- without an offset, then in UTC) had two keys. They are now keyed by what they say
-- (src/streams/contentKey.ts): the instant, codes without case or extra spacing, texts without extra
-- spacing. This re-keys the stored rows the same way, from their stored columns, and merges the rows
-- of one record stored under several old keys into one, keeping the newest (latest synced_at).
-- The functions below mirror instantPart, codePart, textPart and contentKey exactly (ASCII spacing
-- and case only, JSON text as JSON.stringify writes it); they live in pg_temp and are dropped at the end.
CREATE FUNCTION pg_temp.key_text(t text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT nullif(regexp_replace(btrim(t, E' \t\n\r\f\x0b'), E'[ \t\n\r\f\x0b]+', ' ', 'g'), '')
$$;
--> statement-breakpoint
CREATE FUNCTION pg_temp.key_code(t text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT translate(pg_temp.key_text(t), 'abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ')
$$;
--> statement-breakpoint
CREATE FUNCTION pg_temp.key_instant(t timestamptz) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$$;
--> statement-breakpoint
CREATE FUNCTION pg_temp.content_key(parts text[]) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT encode(sha256(convert_to(
    '[' || (SELECT string_agg(coalesce(to_json(p)::text, 'null'), ',' ORDER BY i)
              FROM unnest(parts) WITH ORDINALITY AS u(p, i)) || ']', 'UTF8')), 'hex')
$$;
--> statement-breakpoint
-- order_holds: one row per record (the newest), then every row under its new key.
DELETE FROM "fulfillment"."order_holds" t USING (
  SELECT row_id, row_number() OVER (PARTITION BY account_number, order_number, new_key ORDER BY synced_at DESC NULLS LAST, hold_key) AS n
    FROM (SELECT ctid AS row_id, account_number, order_number, hold_key, synced_at, pg_temp.content_key(ARRAY[pg_temp.key_code(hold_name), pg_temp.key_instant(creation_date)]) AS new_key
            FROM "fulfillment"."order_holds") keyed
) ranked
WHERE t.ctid = ranked.row_id AND ranked.n > 1;
--> statement-breakpoint
UPDATE "fulfillment"."order_holds" t SET hold_key = keyed.new_key
  FROM (SELECT ctid AS row_id, pg_temp.content_key(ARRAY[pg_temp.key_code(hold_name), pg_temp.key_instant(creation_date)]) AS new_key FROM "fulfillment"."order_holds") keyed
 WHERE t.ctid = keyed.row_id AND t.hold_key IS DISTINCT FROM keyed.new_key;
--> statement-breakpoint
-- order_messages: one row per record (the newest), then every row under its new key.
DELETE FROM "fulfillment"."order_messages" t USING (
  SELECT row_id, row_number() OVER (PARTITION BY account_number, order_number, new_key ORDER BY synced_at DESC NULLS LAST, message_key) AS n
    FROM (SELECT ctid AS row_id, account_number, order_number, message_key, synced_at, pg_temp.content_key(ARRAY[pg_temp.key_instant(message_time), pg_temp.key_code(message_type), pg_temp.key_text(message)]) AS new_key
            FROM "fulfillment"."order_messages") keyed
) ranked
WHERE t.ctid = ranked.row_id AND ranked.n > 1;
--> statement-breakpoint
UPDATE "fulfillment"."order_messages" t SET message_key = keyed.new_key
  FROM (SELECT ctid AS row_id, pg_temp.content_key(ARRAY[pg_temp.key_instant(message_time), pg_temp.key_code(message_type), pg_temp.key_text(message)]) AS new_key FROM "fulfillment"."order_messages") keyed
 WHERE t.ctid = keyed.row_id AND t.message_key IS DISTINCT FROM keyed.new_key;
--> statement-breakpoint
-- transfer_in_notes: one row per record (the newest), then every row under its new key.
DELETE FROM "fulfillment"."transfer_in_notes" t USING (
  SELECT row_id, row_number() OVER (PARTITION BY supplier_id, order_number, new_key ORDER BY synced_at DESC NULLS LAST, note_key) AS n
    FROM (SELECT ctid AS row_id, supplier_id, order_number, note_key, synced_at, pg_temp.content_key(ARRAY[pg_temp.key_code(type_code), pg_temp.key_instant(note_timestamp), pg_temp.key_text(note_text)]) AS new_key
            FROM "fulfillment"."transfer_in_notes") keyed
) ranked
WHERE t.ctid = ranked.row_id AND ranked.n > 1;
--> statement-breakpoint
UPDATE "fulfillment"."transfer_in_notes" t SET note_key = keyed.new_key
  FROM (SELECT ctid AS row_id, pg_temp.content_key(ARRAY[pg_temp.key_code(type_code), pg_temp.key_instant(note_timestamp), pg_temp.key_text(note_text)]) AS new_key FROM "fulfillment"."transfer_in_notes") keyed
 WHERE t.ctid = keyed.row_id AND t.note_key IS DISTINCT FROM keyed.new_key;
--> statement-breakpoint
-- shipment_events: one row per record (the newest), then every row under its new key.
DELETE FROM "fulfillment"."shipment_events" t USING (
  SELECT row_id, row_number() OVER (PARTITION BY container_id, new_key ORDER BY synced_at DESC NULLS LAST, event_key) AS n
    FROM (SELECT ctid AS row_id, container_id, event_key, synced_at, pg_temp.content_key(ARRAY[pg_temp.key_instant(event_time), pg_temp.key_code(city), pg_temp.key_code(state_or_province), pg_temp.key_text(description)]) AS new_key
            FROM "fulfillment"."shipment_events") keyed
) ranked
WHERE t.ctid = ranked.row_id AND ranked.n > 1;
--> statement-breakpoint
UPDATE "fulfillment"."shipment_events" t SET event_key = keyed.new_key
  FROM (SELECT ctid AS row_id, pg_temp.content_key(ARRAY[pg_temp.key_instant(event_time), pg_temp.key_code(city), pg_temp.key_code(state_or_province), pg_temp.key_text(description)]) AS new_key FROM "fulfillment"."shipment_events") keyed
 WHERE t.ctid = keyed.row_id AND t.event_key IS DISTINCT FROM keyed.new_key;
--> statement-breakpoint
DROP FUNCTION pg_temp.content_key(text[]);
--> statement-breakpoint
DROP FUNCTION pg_temp.key_instant(timestamptz);
--> statement-breakpoint
DROP FUNCTION pg_temp.key_code(text);
--> statement-breakpoint
DROP FUNCTION pg_temp.key_text(text);
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."order_holds"."hold_key" IS 'Natural key part: a hash of what holdName and creationDate say (the record carries no id): a time as its instant, codes and names without case or extra spacing, texts without extra spacing, so the record sent again in another spelling keeps its key.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."order_messages"."message_key" IS 'Natural key part: a hash of what messageTime, messageType and message say (the record carries no id): a time as its instant, codes and names without case or extra spacing, texts without extra spacing, so the record sent again in another spelling keeps its key.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."shipment_events"."event_key" IS 'Natural key part: a hash of what eventTime, city, stateOrProvince and description say (the record carries no id): a time as its instant, codes and names without case or extra spacing, texts without extra spacing, so the record sent again in another spelling keeps its key.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."transfer_in_notes"."note_key" IS 'Natural key part: a hash of what typeCode, noteTimestamp and noteText say (the record carries no id): a time as its instant, codes and names without case or extra spacing, texts without extra spacing, so the record sent again in another spelling keeps its key.';
