-- PII masking by allow-list (src/db/pii/marking.ts, src/db/pii/maskingSql.ts): the functions the
-- masking views of fulfillment_masked call from this version on. Like the first masking functions,
-- they take the key (as its HMAC pads), the JSON members read as received and the personal value
-- patterns as arguments and read nothing themselves. Written by hand: drizzle-kit does not model
-- functions. The masking function of the deny-list (five arguments) is dropped once the views stop
-- calling it (*_pii_deny_list_dropped.sql).

-- Whether a text looks personal: an e-mail (patterns[1], tried only on texts with an @), a phone
-- or a street line (patterns[2] and [3], tried only on texts with a digit). Codes, SKUs and plain
-- numbers (letters, digits and _ only) and ISO dates are answered first, by cheap expressions: they
-- are most of what is read, and none of the patterns can match them (but a bare `apt4`). Null for a
-- null text. A plain SQL expression naming only built-in functions, so Postgres inlines it into the
-- views for any role.
CREATE OR REPLACE FUNCTION sync.pii_looks_personal(value text, patterns text[]) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN value ~ '^[[:alnum:]_]*$' THEN false
              WHEN value ~ '^\d{4}-\d\d-\d\d([T ][0-9:.]+(Z|[+-]\d\d(:?\d\d)?)?)?$' THEN false
              ELSE (strpos(value, '@') > 0 AND value ~* patterns[1])
                OR (value ~ '[0-9]' AND (value ~* patterns[2] OR value ~* patterns[3])) END
$$;
--> statement-breakpoint

-- A JSON document as a reader may read it, at any depth: a member whose name (lowercased, without
-- _ and -) is a key of `allowed` keeps its value, unless that value is a text that looks personal;
-- every other member's value is replaced by the pii_hash of its text (a string's own text, else its
-- JSON text: a phone may come as a number), whatever its type; a JSON null stays null. Objects and
-- arrays are walked the same way whatever their member's name; plain values inside an array are
-- judged as their member is (`scalars_allowed`). A member name that looks personal (an object keyed
-- by e-mail) is hashed too. An empty object or array is kept as it is, without a call. STRICT: a
-- null argument (no key) makes the whole document null.
-- SECURITY DEFINER only so that its body, which names functions of schema sync, runs for a reader
-- role without USAGE on sync (PL/pgSQL resolves names at run time as the caller); it reads no
-- table and is given the key by the view that calls it.
CREATE OR REPLACE FUNCTION sync.pii_mask_json(doc jsonb, allowed jsonb, patterns text[], inner_pad bytea,
  outer_pad bytea, scalars_allowed boolean DEFAULT false)
RETURNS jsonb LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY DEFINER SET search_path = pg_catalog AS $$
BEGIN
  CASE jsonb_typeof(doc)
  WHEN 'object' THEN
    RETURN (
      SELECT coalesce(jsonb_object_agg(
               CASE WHEN m.ok OR NOT sync.pii_looks_personal(e.key, patterns) THEN e.key
                    ELSE sync.pii_hash(e.key, inner_pad, outer_pad) END,
               CASE WHEN e.value IN ('{}', '[]') THEN e.value
                    WHEN m.t IN ('object', 'array')
                      THEN sync.pii_mask_json(e.value, allowed, patterns, inner_pad, outer_pad, m.ok)
                    WHEN m.t = 'null' THEN e.value
                    WHEN m.ok AND (m.t <> 'string' OR NOT sync.pii_looks_personal(e.value #>> '{}', patterns))
                      THEN e.value
                    ELSE to_jsonb(sync.pii_hash(e.value #>> '{}', inner_pad, outer_pad)) END), '{}'::jsonb)
        FROM jsonb_each(doc) e
       CROSS JOIN LATERAL (SELECT coalesce(allowed ? replace(replace(lower(e.key), '_', ''), '-', ''), false) AS ok,
                                  jsonb_typeof(e.value) AS t) m);
  WHEN 'array' THEN
    RETURN (
      SELECT coalesce(jsonb_agg(
               CASE WHEN a.value IN ('{}', '[]') THEN a.value
                    WHEN m.t IN ('object', 'array')
                      THEN sync.pii_mask_json(a.value, allowed, patterns, inner_pad, outer_pad, scalars_allowed)
                    WHEN m.t = 'null' THEN a.value
                    WHEN scalars_allowed AND (m.t <> 'string' OR NOT sync.pii_looks_personal(a.value #>> '{}', patterns))
                      THEN a.value
                    ELSE to_jsonb(sync.pii_hash(a.value #>> '{}', inner_pad, outer_pad)) END ORDER BY a.n), '[]'::jsonb)
        FROM jsonb_array_elements(doc) WITH ORDINALITY a(value, n)
       CROSS JOIN LATERAL (SELECT jsonb_typeof(a.value) AS t) m);
  WHEN 'null' THEN
    RETURN doc;
  ELSE
    IF scalars_allowed AND (jsonb_typeof(doc) <> 'string' OR NOT sync.pii_looks_personal(doc #>> '{}', patterns)) THEN
      RETURN doc;
    END IF;
    RETURN to_jsonb(sync.pii_hash(doc #>> '{}', inner_pad, outer_pad));
  END CASE;
END
$$;
