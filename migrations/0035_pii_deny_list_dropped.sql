-- The masking function of the deny-list (members named personal hashed, every other member kept),
-- which the masking views no longer call (*_pii_allow_list_views.sql): dropped so that nothing
-- reads JSON that way again.
DROP FUNCTION IF EXISTS sync.pii_mask_json(jsonb, text[], text[], bytea, bytea);
