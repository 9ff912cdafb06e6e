-- Closed by default (src/db/readerRole.ts): a reader reads what is marked, column by column, once a
-- grant runs; nothing created later is readable by it. Earlier versions granted readers the future
-- (default privileges on schemas analytics, fulfillment_masked, and fulfillment for full readers)
-- and whole tables of fulfillment (a masked reader: every table without a column marked PII, `raw`
-- and free text included). On upgrade, whether or not migrate names the reader role, this takes
-- both away: every default privilege on tables of the three schemas given to another role (where the
-- migrating role may alter them), and every privilege on the tables of fulfillment held by a masked
-- reader of an earlier version (a role that reads fulfillment_masked.orders but not
-- fulfillment.orders). The next `migrate` with FULFILLMENT_READER_ROLE (or `grant-reader`) gives
-- the reader what is marked, through the masking views.
DO $$
DECLARE
  d record;
  r record;
  t regclass;
BEGIN
  FOR d IN
    SELECT pg_get_userbyid(a.defaclrole) AS owner, n.nspname AS schema,
           CASE WHEN g.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(g.grantee)) END AS grantee
      FROM pg_default_acl a
      JOIN pg_namespace n ON n.oid = a.defaclnamespace, aclexplode(a.defaclacl) g
     WHERE n.nspname IN ('fulfillment', 'fulfillment_masked', 'analytics') AND a.defaclobjtype = 'r'
       AND g.grantee <> a.defaclrole AND pg_has_role(a.defaclrole, 'MEMBER')
  LOOP
    EXECUTE format('ALTER DEFAULT PRIVILEGES FOR ROLE %I IN SCHEMA %I REVOKE ALL ON TABLES FROM %s',
                   d.owner, d.schema, d.grantee);
  END LOOP;
  IF to_regclass('fulfillment_masked.orders') IS NOT NULL THEN
    FOR r IN
      SELECT rolname FROM pg_roles
       WHERE NOT rolsuper AND rolname <> current_user AND NOT pg_has_role(rolname, current_user, 'USAGE')
         AND has_table_privilege(oid, 'fulfillment_masked.orders', 'SELECT')
         AND NOT has_table_privilege(oid, 'fulfillment.orders', 'SELECT')
    LOOP
      -- The tables only: the views of fulfillment expose nothing personal.
      FOR t IN SELECT c.oid::regclass FROM pg_class c
                WHERE c.relnamespace = 'fulfillment'::regnamespace AND c.relkind IN ('r', 'p', 'f')
      LOOP
        EXECUTE format('REVOKE ALL ON %s FROM %I', t, r.rolname);
      END LOOP;
    END LOOP;
  END IF;
END
$$;
