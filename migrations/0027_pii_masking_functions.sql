-- PII masking (src/db/pii/marking.ts, src/db/schema/masked.ts): the functions the views of schema
-- fulfillment_masked call. They take the key (as its HMAC pads) as an argument and read nothing
-- themselves, so a role that can call them but cannot read sync.pii_key cannot hash a guess the
-- way the views do. Written by hand: drizzle-kit does not model functions.

-- One HMAC pad of a key (RFC 2104): the key, hashed if longer than SHA-256's 64-byte block and
-- zero-filled to it, each byte XOR `pad` (54 = 0x36 inner, 92 = 0x5c outer).
CREATE OR REPLACE FUNCTION sync.hmac_pad(key bytea, pad integer) RETURNS bytea
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  k bytea := CASE WHEN octet_length(key) > 64 THEN sha256(key) ELSE key END;
  result bytea;
BEGIN
  k := k || decode(repeat('00', 64 - octet_length(k)), 'hex');
  result := k;
  FOR i IN 0..63 LOOP
    result := set_byte(result, i, get_byte(k, i) # pad);
  END LOOP;
  RETURN result;
END
$$;
--> statement-breakpoint

-- HMAC-SHA-256 of a personal value, lowercased and trimmed so that the same e-mail or name written
-- differently hashes equal, as 64 hex digits; null stays null. A plain SQL expression, so Postgres
-- inlines it into the views.
CREATE OR REPLACE FUNCTION sync.pii_hash(value text, inner_pad bytea, outer_pad bytea) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT encode(sha256(outer_pad || sha256(inner_pad || convert_to(lower(btrim(value)), 'UTF8'))), 'hex')
$$;
--> statement-breakpoint

-- A JSON document with its personal members hashed, at any depth: a member whose name (lowercased,
-- without _ and -) is one of `members` or is LIKE one of `parts` becomes the pii_hash of its value
-- (of its JSON text when not a string; a JSON null stays null); every other member is kept, its
-- objects and arrays masked the same way. SECURITY DEFINER only so that its body, which names
-- functions of schema sync, runs for a reader role without USAGE on sync (PL/pgSQL resolves names
-- at run time as the caller); it reads no table and is given the key by the view that calls it.
CREATE OR REPLACE FUNCTION sync.pii_mask_json(doc jsonb, members text[], parts text[], inner_pad bytea, outer_pad bytea)
RETURNS jsonb LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE SECURITY DEFINER SET search_path = pg_catalog AS $$
BEGIN
  IF jsonb_typeof(doc) = 'object' THEN
    RETURN (
      SELECT coalesce(jsonb_object_agg(e.key,
               CASE WHEN jsonb_typeof(e.value) = 'null' THEN e.value
                    WHEN m.name = ANY (members) OR m.name LIKE ANY (parts)
                      THEN to_jsonb(sync.pii_hash(CASE WHEN jsonb_typeof(e.value) = 'string' THEN e.value #>> '{}'
                                                       ELSE e.value::text END, inner_pad, outer_pad))
                    WHEN jsonb_typeof(e.value) IN ('object', 'array')
                      THEN sync.pii_mask_json(e.value, members, parts, inner_pad, outer_pad)
                    ELSE e.value END), '{}'::jsonb)
        FROM jsonb_each(doc) e
       CROSS JOIN LATERAL (SELECT replace(replace(lower(e.key), '_', ''), '-', '') AS name) m);
  ELSIF jsonb_typeof(doc) = 'array' THEN
    RETURN (
      SELECT coalesce(jsonb_agg(
               CASE WHEN jsonb_typeof(a.value) IN ('object', 'array')
                    THEN sync.pii_mask_json(a.value, members, parts, inner_pad, outer_pad)
                    ELSE a.value END ORDER BY a.n), '[]'::jsonb)
        FROM jsonb_array_elements(doc) WITH ORDINALITY a(value, n));
  END IF;
  RETURN doc;
END
$$;
