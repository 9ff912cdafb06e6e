COMMENT ON COLUMN "fulfillment"."inventory"."raw" IS 'The record as received from the API, including members the spec does not detail. PII inside (JSON as received, whose members may be names, e-mails, phones, street lines or free text): a reader role reads it with every member not known to be safe, and every value that looks like an e-mail, phone or street line, replaced by a keyed hash (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."inventory"."content_hash" IS 'Hash (SHA-1 of its JSON) of raw, kept by fulfillment-sync to recognise an unchanged record without re-reading it. PII-derived (an unkeyed hash over personal data): a reader role reads a keyed hash of it (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."inventory_activity"."raw" IS 'The record as received from the API, including members the spec does not detail. PII inside (JSON as received, whose members may be names, e-mails, phones, street lines or free text): a reader role reads it with every member not known to be safe, and every value that looks like an e-mail, phone or street line, replaced by a keyed hash (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."inventory_activity"."content_hash" IS 'Hash (SHA-1 of its JSON) of raw, kept by fulfillment-sync to recognise an unchanged record without re-reading it. PII-derived (an unkeyed hash over personal data): a reader role reads a keyed hash of it (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."invoices"."raw" IS 'The record as received from the API, including members the spec does not detail. PII inside (JSON as received, whose members may be names, e-mails, phones, street lines or free text): a reader role reads it with every member not known to be safe, and every value that looks like an e-mail, phone or street line, replaced by a keyed hash (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."invoices"."content_hash" IS 'Hash (SHA-1 of its JSON) of raw, kept by fulfillment-sync to recognise an unchanged record without re-reading it. PII-derived (an unkeyed hash over personal data): a reader role reads a keyed hash of it (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."order_addresses"."raw" IS 'The record as received from the API, including members the spec does not detail. PII inside (JSON as received, whose members may be names, e-mails, phones, street lines or free text): a reader role reads it with every member not known to be safe, and every value that looks like an e-mail, phone or street line, replaced by a keyed hash (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."order_holds"."hold_key" IS 'Natural key part: a hash of what holdName and creationDate say (the record carries no id): a time as its instant, codes and names without case or extra spacing, texts without extra spacing, so the record sent again in another spelling keeps its key. PII-derived (an unkeyed hash over personal data): a reader role reads a keyed hash of it (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."order_holds"."hold_comment" IS 'Hold comment. PII (consumer personal data): a reader role reads a keyed hash of it (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."order_holds"."release_comment" IS 'Release comment. PII (consumer personal data): a reader role reads a keyed hash of it (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."order_holds"."raw" IS 'The record as received from the API, including members the spec does not detail. PII inside (JSON as received, whose members may be names, e-mails, phones, street lines or free text): a reader role reads it with every member not known to be safe, and every value that looks like an e-mail, phone or street line, replaced by a keyed hash (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."order_lines"."raw" IS 'The record as received from the API, including members the spec does not detail. PII inside (JSON as received, whose members may be names, e-mails, phones, street lines or free text): a reader role reads it with every member not known to be safe, and every value that looks like an e-mail, phone or street line, replaced by a keyed hash (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."order_messages"."message_key" IS 'Natural key part: a hash of what messageTime, messageType and message say (the record carries no id): a time as its instant, codes and names without case or extra spacing, texts without extra spacing, so the record sent again in another spelling keeps its key. PII-derived (an unkeyed hash over personal data): a reader role reads a keyed hash of it (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."order_messages"."message" IS 'Message text. PII (consumer personal data): a reader role reads a keyed hash of it (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."order_messages"."raw" IS 'The record as received from the API, including members the spec does not detail. PII inside (JSON as received, whose members may be names, e-mails, phones, street lines or free text): a reader role reads it with every member not known to be safe, and every value that looks like an e-mail, phone or street line, replaced by a keyed hash (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."orders"."packages" IS 'Order packages as received (JSON array; fields beyond shipmentKey are not shown in the spec). PII inside (JSON as received, whose members may be names, e-mails, phones, street lines or free text): a reader role reads it with every member not known to be safe, and every value that looks like an e-mail, phone or street line, replaced by a keyed hash (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."orders"."contents" IS 'Order contents as received (JSON array; fields not shown in the spec). PII inside (JSON as received, whose members may be names, e-mails, phones, street lines or free text): a reader role reads it with every member not known to be safe, and every value that looks like an e-mail, phone or street line, replaced by a keyed hash (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."orders"."trackings" IS 'Shipment tracking history as received (JSON array; fields not shown in the spec). PII inside (JSON as received, whose members may be names, e-mails, phones, street lines or free text): a reader role reads it with every member not known to be safe, and every value that looks like an e-mail, phone or street line, replaced by a keyed hash (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."orders"."notes" IS 'Order notes as received (JSON array; fields not shown in the spec). PII inside (JSON as received, whose members may be names, e-mails, phones, street lines or free text): a reader role reads it with every member not known to be safe, and every value that looks like an e-mail, phone or street line, replaced by a keyed hash (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."orders"."billings" IS 'Billing history as received (JSON array; fields not shown in the spec). PII inside (JSON as received, whose members may be names, e-mails, phones, street lines or free text): a reader role reads it with every member not known to be safe, and every value that looks like an e-mail, phone or street line, replaced by a keyed hash (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."orders"."account_payable_headers" IS 'Account-payable headers as received (JSON array; fields not shown in the spec). PII inside (JSON as received, whose members may be names, e-mails, phones, street lines or free text): a reader role reads it with every member not known to be safe, and every value that looks like an e-mail, phone or street line, replaced by a keyed hash (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."orders"."account_payable_lines" IS 'Account-payable lines as received (JSON array; fields not shown in the spec). PII inside (JSON as received, whose members may be names, e-mails, phones, street lines or free text): a reader role reads it with every member not known to be safe, and every value that looks like an e-mail, phone or street line, replaced by a keyed hash (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."orders"."raw" IS 'The order detail as received (header, lines, holds, messages, addresses and the rest), including members the spec does not detail. PII inside (JSON as received, whose members may be names, e-mails, phones, street lines or free text): a reader role reads it with every member not known to be safe, and every value that looks like an e-mail, phone or street line, replaced by a keyed hash (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."product_bom_inventories"."raw" IS 'The record as received from the API, including members the spec does not detail. PII inside (JSON as received, whose members may be names, e-mails, phones, street lines or free text): a reader role reads it with every member not known to be safe, and every value that looks like an e-mail, phone or street line, replaced by a keyed hash (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."product_pto_components"."raw" IS 'The record as received from the API, including members the spec does not detail. PII inside (JSON as received, whose members may be names, e-mails, phones, street lines or free text): a reader role reads it with every member not known to be safe, and every value that looks like an e-mail, phone or street line, replaced by a keyed hash (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."product_selling_infos"."raw" IS 'The record as received from the API, including members the spec does not detail. PII inside (JSON as received, whose members may be names, e-mails, phones, street lines or free text): a reader role reads it with every member not known to be safe, and every value that looks like an e-mail, phone or street line, replaced by a keyed hash (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."products"."raw" IS 'The owned-listing row as received, including members the spec does not detail. PII inside (JSON as received, whose members may be names, e-mails, phones, street lines or free text): a reader role reads it with every member not known to be safe, and every value that looks like an e-mail, phone or street line, replaced by a keyed hash (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."products"."content_hash" IS 'Hash (SHA-1 of its JSON) of raw, kept by fulfillment-sync to recognise an unchanged record without re-reading it. PII-derived (an unkeyed hash over personal data): a reader role reads a keyed hash of it (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."products"."detail_raw" IS 'The detail header as received from the detail call, including members the spec does not detail. PII inside (JSON as received, whose members may be names, e-mails, phones, street lines or free text): a reader role reads it with every member not known to be safe, and every value that looks like an e-mail, phone or street line, replaced by a keyed hash (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."return_lines"."raw" IS 'The record as received from the API, including members the spec does not detail. PII inside (JSON as received, whose members may be names, e-mails, phones, street lines or free text): a reader role reads it with every member not known to be safe, and every value that looks like an e-mail, phone or street line, replaced by a keyed hash (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."returns"."raw" IS 'The record as received from the API, including members the spec does not detail. PII inside (JSON as received, whose members may be names, e-mails, phones, street lines or free text): a reader role reads it with every member not known to be safe, and every value that looks like an e-mail, phone or street line, replaced by a keyed hash (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."shipment_events"."raw" IS 'The record as received from the API, including members the spec does not detail. PII inside (JSON as received, whose members may be names, e-mails, phones, street lines or free text): a reader role reads it with every member not known to be safe, and every value that looks like an e-mail, phone or street line, replaced by a keyed hash (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."shipment_lines"."raw" IS 'The record as received from the API, including members the spec does not detail. PII inside (JSON as received, whose members may be names, e-mails, phones, street lines or free text): a reader role reads it with every member not known to be safe, and every value that looks like an e-mail, phone or street line, replaced by a keyed hash (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."shipments"."raw" IS 'The shipment update as received (header, lineItems and events), including members the spec does not detail. PII inside (JSON as received, whose members may be names, e-mails, phones, street lines or free text): a reader role reads it with every member not known to be safe, and every value that looks like an e-mail, phone or street line, replaced by a keyed hash (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."shipments"."content_hash" IS 'Hash (SHA-1 of its JSON) of raw, kept by fulfillment-sync to recognise an unchanged record without re-reading it. PII-derived (an unkeyed hash over personal data): a reader role reads a keyed hash of it (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."transfer_in_lines"."created_by" IS 'Created by. PII (consumer personal data): a reader role reads a keyed hash of it (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."transfer_in_lines"."last_updated_by" IS 'Last updated by. PII (consumer personal data): a reader role reads a keyed hash of it (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."transfer_in_lines"."raw" IS 'The record as received from the API, including members the spec does not detail. PII inside (JSON as received, whose members may be names, e-mails, phones, street lines or free text): a reader role reads it with every member not known to be safe, and every value that looks like an e-mail, phone or street line, replaced by a keyed hash (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."transfer_in_notes"."note_key" IS 'Natural key part: a hash of what typeCode, noteTimestamp and noteText say (the record carries no id): a time as its instant, codes and names without case or extra spacing, texts without extra spacing, so the record sent again in another spelling keeps its key. PII-derived (an unkeyed hash over personal data): a reader role reads a keyed hash of it (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."transfer_in_notes"."note_text" IS 'Note text. PII (consumer personal data): a reader role reads a keyed hash of it (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."transfer_in_notes"."created_by" IS 'Created by. PII (consumer personal data): a reader role reads a keyed hash of it (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."transfer_in_notes"."last_updated_by" IS 'Last updated by. PII (consumer personal data): a reader role reads a keyed hash of it (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."transfer_in_notes"."raw" IS 'The record as received from the API, including members the spec does not detail. PII inside (JSON as received, whose members may be names, e-mails, phones, street lines or free text): a reader role reads it with every member not known to be safe, and every value that looks like an e-mail, phone or street line, replaced by a keyed hash (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."transfers_in"."pickup_site_line1" IS 'Pickup site address line 1. PII (consumer personal data): a reader role reads a keyed hash of it (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."transfers_in"."pickup_site_line2" IS 'Pickup site address line 2. PII (consumer personal data): a reader role reads a keyed hash of it (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."transfers_in"."created_by" IS 'Created by. PII (consumer personal data): a reader role reads a keyed hash of it (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."transfers_in"."last_updated_by" IS 'Last updated by. PII (consumer personal data): a reader role reads a keyed hash of it (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."transfers_in"."pickup_site_phone" IS 'Pickup site phone (IN detail only). PII (consumer personal data): a reader role reads a keyed hash of it (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."transfers_in"."pickup_site_fax" IS 'Pickup site fax (IN detail only). PII (consumer personal data): a reader role reads a keyed hash of it (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."transfers_in"."notification_status_message" IS 'Notification status message (IN detail only). PII (consumer personal data): a reader role reads a keyed hash of it (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."transfers_in"."raw" IS 'The IN list row as received, including members the spec does not detail. PII inside (JSON as received, whose members may be names, e-mails, phones, street lines or free text): a reader role reads it with every member not known to be safe, and every value that looks like an e-mail, phone or street line, replaced by a keyed hash (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."transfers_in"."content_hash" IS 'Hash (SHA-1 of its JSON) of raw, kept by fulfillment-sync to recognise an unchanged record without re-reading it. PII-derived (an unkeyed hash over personal data): a reader role reads a keyed hash of it (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."transfers_in"."detail_raw" IS 'The detail header as received from the detail call, including members the spec does not detail. PII inside (JSON as received, whose members may be names, e-mails, phones, street lines or free text): a reader role reads it with every member not known to be safe, and every value that looks like an e-mail, phone or street line, replaced by a keyed hash (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."transfers_out"."created_by" IS 'Created by. PII (consumer personal data): a reader role reads a keyed hash of it (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."transfers_out"."raw" IS 'The record as received from the API, including members the spec does not detail. PII inside (JSON as received, whose members may be names, e-mails, phones, street lines or free text): a reader role reads it with every member not known to be safe, and every value that looks like an e-mail, phone or street line, replaced by a keyed hash (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."transfers_out"."content_hash" IS 'Hash (SHA-1 of its JSON) of raw, kept by fulfillment-sync to recognise an unchanged record without re-reading it. PII-derived (an unkeyed hash over personal data): a reader role reads a keyed hash of it (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON VIEW "fulfillment_masked"."inventory" IS 'View for reader roles: fulfillment.inventory as a reader may read it (the columns marked in src/db/pii/marks/; personal ones as keyed hashes, values that look like an e-mail, phone or street line hashed too). Current owned inventory (spec 2.8, GET Inventories/Owned). A row that vanishes from the snapshot is zeroed, not deleted. Key: supplier_id, warehouse_code, sub_inventory_code, sku.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory"."supplier_id" IS 'Scope: the supplier id whose call returned it (the record does not carry it).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory"."warehouse_code" IS 'Warehouse code: GLW (Glenwillow), WDI (Green Island), PSO (Paso Robles), SMA (Santa Maria), SHW (Willamette Valley), DAL (Dallas); owned inventory may also show MHT and AMC.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory"."sub_inventory_code" IS 'Sub-inventory code.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory"."sku" IS 'The customer SKU.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory"."warehouse_name" IS 'Warehouse name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory"."description" IS 'Description.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory"."provider_sku" IS 'SKU assigned by the service.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory"."sub_inventory_name" IS 'Sub-inventory name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory"."qty_on_hand" IS 'Quantity on hand (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory"."qty_on_orders" IS 'Quantity on orders (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory"."qty_on_ins" IS 'Quantity on inbound transfers (INs) (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory"."qty_available_to_sell" IS 'Quantity available to sell (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory"."qty_available_to_promise" IS 'Quantity available to promise (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory"."vanished_at" IS 'When the row vanished from the owned-inventory snapshot (quantities then zeroed); null while present.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory"."synced_at" IS 'When fulfillment-sync last wrote this row (only when something in it changed).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory"."raw" IS 'The record as received from the API, including members the spec does not detail. Masked: members the allow-list names (codes, quantities, SKUs, dates, statuses, city, state, postal code, country) as received; every other member, at any depth, and every value that looks like an e-mail, phone or street line, replaced by its HMAC-SHA-256 (as the masked columns are).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory"."content_hash" IS 'Hash (SHA-1 of its JSON) of raw, kept by fulfillment-sync to recognise an unchanged record without re-reading it. Masked: HMAC-SHA-256 (key in sync.pii_key) of the stored hash; still changes when the record does.';
--> statement-breakpoint
COMMENT ON VIEW "fulfillment_masked"."inventory_activity" IS 'View for reader roles: fulfillment.inventory_activity as a reader may read it (the columns marked in src/db/pii/marks/; personal ones as keyed hashes, values that look like an e-mail, phone or street line hashed too). Daily inventory activity (spec 2.8, GET Inventories/Activity). Key: supplier_id, activity_date, warehouse_code, sub_inventory_code, sku.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory_activity"."supplier_id" IS 'Unique ID of the owner of items (supplier).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory_activity"."activity_date" IS 'The day (in the API time zone) the activity covers: the one-day window of the call.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory_activity"."warehouse_code" IS 'Warehouse code: GLW (Glenwillow), WDI (Green Island), PSO (Paso Robles), SMA (Santa Maria), SHW (Willamette Valley), DAL (Dallas); owned inventory may also show MHT and AMC.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory_activity"."sub_inventory_code" IS 'Sub-inventory code.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory_activity"."sku" IS 'The customer SKU.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory_activity"."account_number" IS 'Unique customer ID (account number).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory_activity"."warehouse_name" IS 'Warehouse name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory_activity"."sub_inventory_name" IS 'Sub-inventory name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory_activity"."description" IS 'Description.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory_activity"."provider_sku" IS 'SKU assigned by the service.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory_activity"."sku_type" IS 'SKU type.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory_activity"."beginning_on_hand" IS 'Quantity on hand at the beginning of the day (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory_activity"."ending_on_hand" IS 'Quantity on hand at the end of the day (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory_activity"."qty_received" IS 'Quantity received (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory_activity"."qty_transferred_in" IS 'Quantity transferred in (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory_activity"."qty_transferred_out" IS 'Quantity transferred out (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory_activity"."qty_moved_in" IS 'Quantity moved in (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory_activity"."qty_moved_out" IS 'Quantity moved out (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory_activity"."qty_shipped" IS 'Quantity shipped (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory_activity"."qty_adjusted" IS 'Quantity adjusted (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory_activity"."qty_damaged" IS 'Quantity damaged (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory_activity"."qty_returned" IS 'Quantity returned (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory_activity"."qty_kitted" IS 'Quantity kitted (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory_activity"."qty_other" IS 'Other quantity movements (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory_activity"."synced_at" IS 'When fulfillment-sync last wrote this row (only when something in it changed).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory_activity"."raw" IS 'The record as received from the API, including members the spec does not detail. Masked: members the allow-list names (codes, quantities, SKUs, dates, statuses, city, state, postal code, country) as received; every other member, at any depth, and every value that looks like an e-mail, phone or street line, replaced by its HMAC-SHA-256 (as the masked columns are).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory_activity"."content_hash" IS 'Hash (SHA-1 of its JSON) of raw, kept by fulfillment-sync to recognise an unchanged record without re-reading it. Masked: HMAC-SHA-256 (key in sync.pii_key) of the stored hash; still changes when the record does.';
--> statement-breakpoint
COMMENT ON VIEW "fulfillment_masked"."inventory_history" IS 'View for reader roles: fulfillment.inventory_history as a reader may read it (the columns marked in src/db/pii/marks/; personal ones as keyed hashes, values that look like an e-mail, phone or street line hashed too). Owned-inventory quantities over time (SCD type 2): each version is valid from valid_from until valid_to (null while current). Key: the inventory key + valid_from.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory_history"."supplier_id" IS 'Scope: the supplier id whose call returned it (the record does not carry it).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory_history"."warehouse_code" IS 'Warehouse code: GLW (Glenwillow), WDI (Green Island), PSO (Paso Robles), SMA (Santa Maria), SHW (Willamette Valley), DAL (Dallas); owned inventory may also show MHT and AMC.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory_history"."sub_inventory_code" IS 'Sub-inventory code.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory_history"."sku" IS 'The customer SKU.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory_history"."valid_from" IS 'Start of this version (inclusive).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory_history"."valid_to" IS 'End of this version (exclusive); null for the current version.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory_history"."qty_on_hand" IS 'Quantity on hand (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory_history"."qty_on_orders" IS 'Quantity on orders (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory_history"."qty_on_ins" IS 'Quantity on inbound transfers (INs) (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory_history"."qty_available_to_sell" IS 'Quantity available to sell (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory_history"."qty_available_to_promise" IS 'Quantity available to promise (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."inventory_history"."run_id" IS 'The sync.runs row that wrote this.';
--> statement-breakpoint
COMMENT ON VIEW "fulfillment_masked"."invoices" IS 'View for reader roles: fulfillment.invoices as a reader may read it (the columns marked in src/db/pii/marks/; personal ones as keyed hashes, values that look like an e-mail, phone or street line hashed too). Invoices (spec 2.13, GET Finances/invoices). Key: invoice_number.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."invoices"."invoice_number" IS 'Invoice number.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."invoices"."account_number" IS 'Unique customer ID (account number).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."invoices"."customer_name" IS 'Customer name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."invoices"."invoice_type" IS 'Invoice type: DIRECT, STORAGE, RETURNS, CARRIER or OUT.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."invoices"."order_count" IS 'Number of orders on the invoice (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."invoices"."invoice_date" IS 'Invoice date (date-time).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."invoices"."class_invoice_amount" IS 'Class invoice amount (number).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."invoices"."total_invoice_amount" IS 'Total invoice amount (number).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."invoices"."payments_received" IS 'Payments received (number).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."invoices"."balance_due" IS 'Balance due (number).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."invoices"."synced_at" IS 'When fulfillment-sync last wrote this row (only when something in it changed).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."invoices"."raw" IS 'The record as received from the API, including members the spec does not detail. Masked: members the allow-list names (codes, quantities, SKUs, dates, statuses, city, state, postal code, country) as received; every other member, at any depth, and every value that looks like an e-mail, phone or street line, replaced by its HMAC-SHA-256 (as the masked columns are).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."invoices"."content_hash" IS 'Hash (SHA-1 of its JSON) of raw, kept by fulfillment-sync to recognise an unchanged record without re-reading it. Masked: HMAC-SHA-256 (key in sync.pii_key) of the stored hash; still changes when the record does.';
--> statement-breakpoint
COMMENT ON VIEW "fulfillment_masked"."order_addresses" IS 'View for reader roles: fulfillment.order_addresses as a reader may read it (the columns marked in src/db/pii/marks/; personal ones as keyed hashes, values that look like an e-mail, phone or street line hashed too). Consumer addresses of an order (spec 2.2 soldToConsumers, shipToConsumers, deliverToConsumers). Key: account_number, order_number, role, position.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_addresses"."account_number" IS 'Unique customer ID (account number).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_addresses"."order_number" IS 'Order number of the customer.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_addresses"."role" IS 'Which array the address came from: ''sold_to'', ''ship_to'' or ''deliver_to''.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_addresses"."position" IS '0-based index of the address in its array.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_addresses"."is_residential_address" IS 'Whether the address is residential (non-null).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_addresses"."first_name" IS 'First name. Masked: HMAC-SHA-256 (key in sync.pii_key) of the value lowercased and trimmed, 64 hex digits; equal values hash equal in every masked view; null stays null.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_addresses"."middle_name" IS 'Middle name. Masked: HMAC-SHA-256 (key in sync.pii_key) of the value lowercased and trimmed, 64 hex digits; equal values hash equal in every masked view; null stays null.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_addresses"."last_name" IS 'Last name. Masked: HMAC-SHA-256 (key in sync.pii_key) of the value lowercased and trimmed, 64 hex digits; equal values hash equal in every masked view; null stays null.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_addresses"."company_name" IS 'Company name. Masked: HMAC-SHA-256 (key in sync.pii_key) of the value lowercased and trimmed, 64 hex digits; equal values hash equal in every masked view; null stays null.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_addresses"."address1" IS 'Address line 1. Masked: HMAC-SHA-256 (key in sync.pii_key) of the value lowercased and trimmed, 64 hex digits; equal values hash equal in every masked view; null stays null.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_addresses"."address2" IS 'Address line 2. Masked: HMAC-SHA-256 (key in sync.pii_key) of the value lowercased and trimmed, 64 hex digits; equal values hash equal in every masked view; null stays null.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_addresses"."address3" IS 'Address line 3. Masked: HMAC-SHA-256 (key in sync.pii_key) of the value lowercased and trimmed, 64 hex digits; equal values hash equal in every masked view; null stays null.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_addresses"."city" IS 'City.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_addresses"."state_code" IS 'State code.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_addresses"."state_name" IS 'State name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_addresses"."postal_code" IS 'Postal code.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_addresses"."country_code" IS 'Country code.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_addresses"."country_name" IS 'Country name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_addresses"."delivery_status_code" IS 'Delivery status code.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_addresses"."delivery_status_name" IS 'Delivery status name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_addresses"."delivery_address_type_code" IS 'Delivery address type code.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_addresses"."delivery_address_type_name" IS 'Delivery address type name; present in ship-to and deliver-to records, absent in sold-to.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_addresses"."synced_at" IS 'When fulfillment-sync last wrote this row (only when something in it changed).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_addresses"."raw" IS 'The record as received from the API, including members the spec does not detail. Masked: members the allow-list names (codes, quantities, SKUs, dates, statuses, city, state, postal code, country) as received; every other member, at any depth, and every value that looks like an e-mail, phone or street line, replaced by its HMAC-SHA-256 (as the masked columns are).';
--> statement-breakpoint
COMMENT ON VIEW "fulfillment_masked"."order_holds" IS 'View for reader roles: fulfillment.order_holds as a reader may read it (the columns marked in src/db/pii/marks/; personal ones as keyed hashes, values that look like an e-mail, phone or street line hashed too). Order holds (spec 2.2 OrderDetailHold). Key: account_number, order_number, hold_key.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_holds"."account_number" IS 'Unique customer ID (account number).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_holds"."order_number" IS 'Order number of the customer.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_holds"."hold_key" IS 'Natural key part: a hash of what holdName and creationDate say (the record carries no id): a time as its instant, codes and names without case or extra spacing, texts without extra spacing, so the record sent again in another spelling keeps its key. Masked: HMAC-SHA-256 (key in sync.pii_key) of the stored hash; still changes when the record does.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_holds"."hold_status" IS 'Hold status.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_holds"."hold_name" IS 'Hold name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_holds"."hold_description" IS 'Hold description.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_holds"."hold_comment" IS 'Hold comment. Masked: HMAC-SHA-256 (key in sync.pii_key) of the value lowercased and trimmed, 64 hex digits; equal values hash equal in every masked view; null stays null.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_holds"."release_reason" IS 'Release reason.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_holds"."release_comment" IS 'Release comment. Masked: HMAC-SHA-256 (key in sync.pii_key) of the value lowercased and trimmed, 64 hex digits; equal values hash equal in every masked view; null stays null.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_holds"."expiration_date" IS 'Expiration date of the hold (date-time).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_holds"."release_date" IS 'Release date of the hold (date-time).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_holds"."creation_date" IS 'Creation date (date-time).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_holds"."is_directly_releasable" IS 'Whether the hold can be released directly (non-null).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_holds"."synced_at" IS 'When fulfillment-sync last wrote this row (only when something in it changed).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_holds"."raw" IS 'The record as received from the API, including members the spec does not detail. Masked: members the allow-list names (codes, quantities, SKUs, dates, statuses, city, state, postal code, country) as received; every other member, at any depth, and every value that looks like an e-mail, phone or street line, replaced by its HMAC-SHA-256 (as the masked columns are).';
--> statement-breakpoint
COMMENT ON VIEW "fulfillment_masked"."order_lines" IS 'View for reader roles: fulfillment.order_lines as a reader may read it (the columns marked in src/db/pii/marks/; personal ones as keyed hashes, values that look like an e-mail, phone or street line hashed too). Order line items (spec 2.2 OrderDetailLine). Key: account_number, order_number, line_number, component_number (null stored as '''').';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_lines"."account_number" IS 'Unique customer ID (account number).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_lines"."order_number" IS 'Order number of the customer.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_lines"."line_number" IS 'Line number.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_lines"."component_number" IS 'Component number.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_lines"."inventory_item_id" IS 'Inventory item row ID.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_lines"."sku" IS 'The customer SKU.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_lines"."description" IS 'Description.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_lines"."is_shippable" IS 'Whether the line is shippable.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_lines"."quantity_ordered" IS 'Quantity ordered (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_lines"."quantity_reserved" IS 'Quantity reserved (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_lines"."quantity_shipped" IS 'Quantity shipped (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_lines"."item_shortage" IS 'Item shortage (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_lines"."uom" IS 'Unit of measure.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_lines"."unit_price" IS 'Unit price (number).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_lines"."sub_inventory_code" IS 'Sub-inventory code.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_lines"."sub_inventory_name" IS 'Sub-inventory name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_lines"."is_bom_component" IS 'Whether the line is a bill-of-materials component.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_lines"."vas_order_personalizations" IS 'Value-added-service personalizations as received (JSON array): type, lineNumber, message, options[] of {type, option, message}. Masked: HMAC-SHA-256 (key in sync.pii_key) of the value lowercased and trimmed, 64 hex digits; equal values hash equal in every masked view; null stays null.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_lines"."synced_at" IS 'When fulfillment-sync last wrote this row (only when something in it changed).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_lines"."raw" IS 'The record as received from the API, including members the spec does not detail. Masked: members the allow-list names (codes, quantities, SKUs, dates, statuses, city, state, postal code, country) as received; every other member, at any depth, and every value that looks like an e-mail, phone or street line, replaced by its HMAC-SHA-256 (as the masked columns are).';
--> statement-breakpoint
COMMENT ON VIEW "fulfillment_masked"."order_messages" IS 'View for reader roles: fulfillment.order_messages as a reader may read it (the columns marked in src/db/pii/marks/; personal ones as keyed hashes, values that look like an e-mail, phone or street line hashed too). Order messages (spec 2.2 OrderDetailMessage). Key: account_number, order_number, message_key.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_messages"."account_number" IS 'Unique customer ID (account number).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_messages"."order_number" IS 'Order number of the customer.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_messages"."message_key" IS 'Natural key part: a hash of what messageTime, messageType and message say (the record carries no id): a time as its instant, codes and names without case or extra spacing, texts without extra spacing, so the record sent again in another spelling keeps its key. Masked: HMAC-SHA-256 (key in sync.pii_key) of the stored hash; still changes when the record does.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_messages"."message_type" IS 'Message type.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_messages"."message" IS 'Message text. Masked: HMAC-SHA-256 (key in sync.pii_key) of the value lowercased and trimmed, 64 hex digits; equal values hash equal in every masked view; null stays null.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_messages"."message_time" IS 'Message time (date-time, non-null).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_messages"."synced_at" IS 'When fulfillment-sync last wrote this row (only when something in it changed).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."order_messages"."raw" IS 'The record as received from the API, including members the spec does not detail. Masked: members the allow-list names (codes, quantities, SKUs, dates, statuses, city, state, postal code, country) as received; every other member, at any depth, and every value that looks like an e-mail, phone or street line, replaced by its HMAC-SHA-256 (as the masked columns are).';
--> statement-breakpoint
COMMENT ON VIEW "fulfillment_masked"."orders" IS 'View for reader roles: fulfillment.orders as a reader may read it (the columns marked in src/db/pii/marks/; personal ones as keyed hashes, values that look like an e-mail, phone or street line hashed too). Order detail headers (spec 2.2 OrderDetailHeader, GET Orders/Detail), fetched for orders named by changed shipments and returns. Key: account_number, order_number.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."account_number" IS 'Unique customer ID (account number).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."order_number" IS 'Order number of the customer.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."customer_name" IS 'Customer name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."warehouse_code" IS 'Warehouse code: GLW (Glenwillow), WDI (Green Island), PSO (Paso Robles), SMA (Santa Maria), SHW (Willamette Valley), DAL (Dallas); owned inventory may also show MHT and AMC.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."warehouse_name" IS 'Warehouse name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."provider_order_number" IS 'Order number assigned by the service.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."received_date" IS 'When the order was received (date-time).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."creation_date" IS 'Creation date (date-time).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."customer_order_date" IS 'Date of the customer order (date-time).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."requested_ship_date" IS 'Requested ship date (date-time): a future date; orders are held until that date, then processed.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."fulfillment_date" IS 'Fulfillment date (date-time).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."shipped_date" IS 'Shipped date (date-time).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."batch_number" IS 'Batch number.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."order_type_code" IS 'Order type: CLUB (club order), STND (daily order), SPCL (special order), VC (visitor center), DAILY (daily order), SPECIAL (special order), CORP (corp order).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."order_type_name" IS 'Order type name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."requested_service_level" IS 'Requested service level.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."planned_service_level" IS 'Planned service level.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."order_status_code" IS 'Order status: DELIVERED, EXCEPTION, IN_TRANSIT, RETURNED, SHIPPED.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."order_status_name" IS 'Order status name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."collapsed_status" IS 'Collapsed status.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."notification_email" IS 'Notification e-mail. Masked: HMAC-SHA-256 (key in sync.pii_key) of the value lowercased and trimmed, 64 hex digits; equal values hash equal in every masked view; null stays null.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."notification_phone" IS 'Notification phone. Masked: HMAC-SHA-256 (key in sync.pii_key) of the value lowercased and trimmed, 64 hex digits; equal values hash equal in every masked view; null stays null.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."gift_message" IS 'Gift message. Masked: HMAC-SHA-256 (key in sync.pii_key) of the value lowercased and trimmed, 64 hex digits; equal values hash equal in every masked view; null stays null.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."shipping_instructions" IS 'Shipping instructions. Masked: HMAC-SHA-256 (key in sync.pii_key) of the value lowercased and trimmed, 64 hex digits; equal values hash equal in every masked view; null stays null.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."compliance_route" IS 'Compliance route.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."fulfillment_route" IS 'Fulfillment route.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."packing_slip_code" IS 'Packing slip code.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."packing_slip_name" IS 'Packing slip name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."is_onsite_purchase" IS 'Whether the order is an on-site purchase (non-null).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."is_line_haul" IS 'Whether the order is line haul (non-null).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."is_editable" IS 'Whether it can still be edited.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."is_cancellable" IS 'Whether it can still be cancelled.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."is_back_ordered" IS 'Whether the order is back-ordered (non-null).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."has_inventory_hold" IS 'Whether the order has an inventory hold (non-null).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."sla_status_code" IS 'SLA status code.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."sla_status_name" IS 'SLA status name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."sla_date" IS 'SLA date (date-time).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."notification_template_code" IS 'Notification template code.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."notification_template_name" IS 'Notification template name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."packaging_type_code" IS 'Packaging type code.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."packaging_type_name" IS 'Packaging type name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."vas_order_personalizations" IS 'Value-added-service personalizations as received (JSON array): type, lineNumber, message, options[] of {type, option, message}. Masked: HMAC-SHA-256 (key in sync.pii_key) of the value lowercased and trimmed, 64 hex digits; equal values hash equal in every masked view; null stays null.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."packages" IS 'Order packages as received (JSON array; fields beyond shipmentKey are not shown in the spec). Masked: members the allow-list names (codes, quantities, SKUs, dates, statuses, city, state, postal code, country) as received; every other member, at any depth, and every value that looks like an e-mail, phone or street line, replaced by its HMAC-SHA-256 (as the masked columns are).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."contents" IS 'Order contents as received (JSON array; fields not shown in the spec). Masked: members the allow-list names (codes, quantities, SKUs, dates, statuses, city, state, postal code, country) as received; every other member, at any depth, and every value that looks like an e-mail, phone or street line, replaced by its HMAC-SHA-256 (as the masked columns are).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."trackings" IS 'Shipment tracking history as received (JSON array; fields not shown in the spec). Masked: members the allow-list names (codes, quantities, SKUs, dates, statuses, city, state, postal code, country) as received; every other member, at any depth, and every value that looks like an e-mail, phone or street line, replaced by its HMAC-SHA-256 (as the masked columns are).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."notes" IS 'Order notes as received (JSON array; fields not shown in the spec). Masked: members the allow-list names (codes, quantities, SKUs, dates, statuses, city, state, postal code, country) as received; every other member, at any depth, and every value that looks like an e-mail, phone or street line, replaced by its HMAC-SHA-256 (as the masked columns are).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."billings" IS 'Billing history as received (JSON array; fields not shown in the spec). Masked: members the allow-list names (codes, quantities, SKUs, dates, statuses, city, state, postal code, country) as received; every other member, at any depth, and every value that looks like an e-mail, phone or street line, replaced by its HMAC-SHA-256 (as the masked columns are).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."account_payable_headers" IS 'Account-payable headers as received (JSON array; fields not shown in the spec). Masked: members the allow-list names (codes, quantities, SKUs, dates, statuses, city, state, postal code, country) as received; every other member, at any depth, and every value that looks like an e-mail, phone or street line, replaced by its HMAC-SHA-256 (as the masked columns are).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."account_payable_lines" IS 'Account-payable lines as received (JSON array; fields not shown in the spec). Masked: members the allow-list names (codes, quantities, SKUs, dates, statuses, city, state, postal code, country) as received; every other member, at any depth, and every value that looks like an e-mail, phone or street line, replaced by its HMAC-SHA-256 (as the masked columns are).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."synced_at" IS 'When fulfillment-sync last wrote this row (only when something in it changed).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."raw" IS 'The order detail as received (header, lines, holds, messages, addresses and the rest), including members the spec does not detail. Masked: members the allow-list names (codes, quantities, SKUs, dates, statuses, city, state, postal code, country) as received; every other member, at any depth, and every value that looks like an e-mail, phone or street line, replaced by its HMAC-SHA-256 (as the masked columns are).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."content_hash" IS 'Hash (SHA-1 of its JSON) of raw, kept by fulfillment-sync to recognise an unchanged record without re-reading it. Masked: HMAC-SHA-256 (key in sync.pii_key) of the stored hash; still changes when the record does.';
--> statement-breakpoint
COMMENT ON VIEW "fulfillment_masked"."product_bom_inventories" IS 'View for reader roles: fulfillment.product_bom_inventories as a reader may read it (the columns marked in src/db/pii/marks/; personal ones as keyed hashes, values that look like an e-mail, phone or street line hashed too). Gift-set (bill-of-materials) inventories of a product per warehouse (spec 2.4 bomInventories[]). Key: supplier_id, sku, warehouse_code, sub_inventory_code.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."product_bom_inventories"."supplier_id" IS 'Unique ID of the owner of items (supplier).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."product_bom_inventories"."sku" IS 'SKU of the parent product (key).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."product_bom_inventories"."warehouse_code" IS 'Warehouse code: GLW (Glenwillow), WDI (Green Island), PSO (Paso Robles), SMA (Santa Maria), SHW (Willamette Valley), DAL (Dallas); owned inventory may also show MHT and AMC.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."product_bom_inventories"."sub_inventory_code" IS 'Sub-inventory code.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."product_bom_inventories"."warehouse_name" IS 'Warehouse name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."product_bom_inventories"."provider_sku" IS 'SKU assigned by the service.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."product_bom_inventories"."record_sku" IS 'The element''s own sku member (in product child tables the sku column is the parent product''s SKU).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."product_bom_inventories"."description" IS 'Description.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."product_bom_inventories"."items_per_gset" IS 'Items per gift set (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."product_bom_inventories"."gsets_onhand" IS 'Gift sets on hand (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."product_bom_inventories"."items_in_gsets" IS 'Items in gift sets (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."product_bom_inventories"."gsets_reserved" IS 'Gift sets reserved (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."product_bom_inventories"."items_in_reserved_gsets" IS 'Items in reserved gift sets (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."product_bom_inventories"."gsets_available" IS 'Gift sets available (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."product_bom_inventories"."items_in_available_gsets" IS 'Items in available gift sets (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."product_bom_inventories"."synced_at" IS 'When fulfillment-sync last wrote this row (only when something in it changed).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."product_bom_inventories"."raw" IS 'The record as received from the API, including members the spec does not detail. Masked: members the allow-list names (codes, quantities, SKUs, dates, statuses, city, state, postal code, country) as received; every other member, at any depth, and every value that looks like an e-mail, phone or street line, replaced by its HMAC-SHA-256 (as the masked columns are).';
--> statement-breakpoint
COMMENT ON VIEW "fulfillment_masked"."product_pto_components" IS 'View for reader roles: fulfillment.product_pto_components as a reader may read it (the columns marked in src/db/pii/marks/; personal ones as keyed hashes, values that look like an e-mail, phone or street line hashed too). Pick-to-order components of a product (spec 2.4 ptoInfos[]). Key: supplier_id, sku, component_number.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."product_pto_components"."supplier_id" IS 'Unique ID of the owner of items (supplier).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."product_pto_components"."sku" IS 'SKU of the parent product (key).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."product_pto_components"."component_number" IS 'Component number (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."product_pto_components"."provider_sku" IS 'SKU assigned by the service.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."product_pto_components"."record_sku" IS 'SKU of the component.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."product_pto_components"."description" IS 'Description.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."product_pto_components"."quantity" IS 'Quantity (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."product_pto_components"."retail_price" IS 'Retail price (number).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."product_pto_components"."weight" IS 'Weight (number).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."product_pto_components"."units_of_measure" IS 'Units of measure.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."product_pto_components"."item_type_code" IS 'Item type: ACC (accessory), FOOD, GSET (gift set), CARD (greeting card), PACK (packaging), WINE (wine/sparkling), PTO (pick-to-order), INSERT; the value NotSet exists.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."product_pto_components"."item_type_name" IS 'Item type name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."product_pto_components"."synced_at" IS 'When fulfillment-sync last wrote this row (only when something in it changed).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."product_pto_components"."raw" IS 'The record as received from the API, including members the spec does not detail. Masked: members the allow-list names (codes, quantities, SKUs, dates, statuses, city, state, postal code, country) as received; every other member, at any depth, and every value that looks like an e-mail, phone or street line, replaced by its HMAC-SHA-256 (as the masked columns are).';
--> statement-breakpoint
COMMENT ON VIEW "fulfillment_masked"."product_selling_infos" IS 'View for reader roles: fulfillment.product_selling_infos as a reader may read it (the columns marked in src/db/pii/marks/; personal ones as keyed hashes, values that look like an e-mail, phone or street line hashed too). Product selling infos (spec 2.4 sellingInfos[]). Key: supplier_id, sku, seller_account_number.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."product_selling_infos"."supplier_id" IS 'Unique ID of the owner of items (supplier).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."product_selling_infos"."sku" IS 'SKU of the parent product (key).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."product_selling_infos"."seller_account_number" IS 'Seller account number allowed to sell the product.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."product_selling_infos"."seller_name" IS 'Seller name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."product_selling_infos"."provider_sku" IS 'SKU assigned by the service.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."product_selling_infos"."record_sku" IS 'The element''s own sku member (in product child tables the sku column is the parent product''s SKU).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."product_selling_infos"."description" IS 'Description.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."product_selling_infos"."retail_price" IS 'Retail price (number).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."product_selling_infos"."supplier_name" IS 'Supplier name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."product_selling_infos"."supplier_payment" IS 'Supplier payment (number).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."product_selling_infos"."synced_at" IS 'When fulfillment-sync last wrote this row (only when something in it changed).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."product_selling_infos"."raw" IS 'The record as received from the API, including members the spec does not detail. Masked: members the allow-list names (codes, quantities, SKUs, dates, statuses, city, state, postal code, country) as received; every other member, at any depth, and every value that looks like an e-mail, phone or street line, replaced by its HMAC-SHA-256 (as the masked columns are).';
--> statement-breakpoint
COMMENT ON VIEW "fulfillment_masked"."products" IS 'View for reader roles: fulfillment.products as a reader may read it (the columns marked in src/db/pii/marks/; personal ones as keyed hashes, values that look like an e-mail, phone or street line hashed too). Products a supplier owns: the owned-listing row (spec 2.5) merged with the product-detail header (spec 2.4); detail-only columns are null until the detail is fetched. Key: supplier_id, sku.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."products"."supplier_id" IS 'Unique ID of the owner of items (supplier).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."products"."sku" IS 'The customer SKU.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."products"."account_number" IS 'Unique customer ID (account number).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."products"."description" IS 'Description.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."products"."provider_sku" IS 'SKU assigned by the service.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."products"."supplier_name" IS 'Supplier name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."products"."account_name" IS 'Account name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."products"."item_type_code" IS 'Item type: ACC (accessory), FOOD, GSET (gift set), CARD (greeting card), PACK (packaging), WINE (wine/sparkling), PTO (pick-to-order), INSERT; the value NotSet exists.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."products"."item_type_name" IS 'Item type name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."products"."pack_slip_description" IS 'Packing-slip description of the product.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."products"."is_owner" IS 'Whether the caller owns the product (product detail top level).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."products"."upc_code" IS 'UPC code.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."products"."brand_name" IS 'Brand name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."products"."fanciful_name" IS 'Fanciful name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."products"."appellation" IS 'Appellation.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."products"."varietal" IS 'Varietal.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."products"."vintage" IS 'Vintage.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."products"."alcohol_type_code" IS 'Alcohol type: SPARKLING, SPIRIT or STILL.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."products"."alcohol_percentage" IS 'Alcohol percentage (a string in the product detail).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."products"."bottle_size_ml" IS 'Bottle size in ML (a string in the product detail).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."products"."units_per_case" IS 'Units per case (a string in the product detail).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."products"."vineyard_designation" IS 'Vineyard designation.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."products"."ttb_approval_number" IS 'Label approval number (TTB/COLA).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."products"."country_of_origin_code" IS 'Country of origin code; only US is accepted at creation.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."products"."country_of_origin_name" IS 'Country of origin name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."products"."region_of_origin" IS 'Region of origin.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."products"."weight" IS 'Weight (number).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."products"."units_of_measure" IS 'Units of measure.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."products"."is_available_for_sourcing" IS 'Whether the product is available for sourcing.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."products"."additional_attributes" IS 'Additional attributes.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."products"."is_bid_stickered" IS 'Whether the product is bid-stickered.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."products"."retail_price" IS 'Retail price (number).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."products"."deactivation_status" IS 'Deactivation status (enumerated; the value NotSet exists).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."products"."vas_code" IS 'Value-added-service code.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."products"."vas_name" IS 'Value-added-service name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."products"."orientation" IS 'Orientation.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."products"."location" IS 'Location.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."products"."detail_fetched_at" IS 'When the detail call was last made for this row; null if never.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."products"."synced_at" IS 'When fulfillment-sync last wrote this row (only when something in it changed).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."products"."raw" IS 'The owned-listing row as received, including members the spec does not detail. Masked: members the allow-list names (codes, quantities, SKUs, dates, statuses, city, state, postal code, country) as received; every other member, at any depth, and every value that looks like an e-mail, phone or street line, replaced by its HMAC-SHA-256 (as the masked columns are).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."products"."content_hash" IS 'Hash (SHA-1 of its JSON) of raw, kept by fulfillment-sync to recognise an unchanged record without re-reading it. Masked: HMAC-SHA-256 (key in sync.pii_key) of the stored hash; still changes when the record does.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."products"."detail_raw" IS 'The detail header as received from the detail call, including members the spec does not detail. Masked: members the allow-list names (codes, quantities, SKUs, dates, statuses, city, state, postal code, country) as received; every other member, at any depth, and every value that looks like an e-mail, phone or street line, replaced by its HMAC-SHA-256 (as the masked columns are).';
--> statement-breakpoint
COMMENT ON VIEW "fulfillment_masked"."return_lines" IS 'View for reader roles: fulfillment.return_lines as a reader may read it (the columns marked in src/db/pii/marks/; personal ones as keyed hashes, values that look like an e-mail, phone or street line hashed too). Return line items (spec 2.9 lineItems[]). Key: ship_return_id, line_number, component_number (null stored as 0).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."return_lines"."ship_return_id" IS 'Return identifier (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."return_lines"."line_number" IS 'Line number.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."return_lines"."component_number" IS 'Component number.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."return_lines"."shipment_key" IS 'Shipment identifier (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."return_lines"."sku" IS 'The customer SKU.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."return_lines"."sku_description" IS 'SKU description.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."return_lines"."provider_sku" IS 'SKU assigned by the service.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."return_lines"."quantity_ordered" IS 'Quantity ordered (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."return_lines"."quantity_shipped" IS 'Quantity shipped (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."return_lines"."quantity_returned" IS 'Quantity returned (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."return_lines"."quantity_damaged" IS 'Quantity damaged (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."return_lines"."quantity_missing" IS 'Quantity missing (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."return_lines"."vas_order_personalizations" IS 'Value-added-service personalizations as received (JSON array): type, lineNumber, message, options[] of {type, option, message}. Masked: HMAC-SHA-256 (key in sync.pii_key) of the value lowercased and trimmed, 64 hex digits; equal values hash equal in every masked view; null stays null.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."return_lines"."synced_at" IS 'When fulfillment-sync last wrote this row (only when something in it changed).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."return_lines"."raw" IS 'The record as received from the API, including members the spec does not detail. Masked: members the allow-list names (codes, quantities, SKUs, dates, statuses, city, state, postal code, country) as received; every other member, at any depth, and every value that looks like an e-mail, phone or street line, replaced by its HMAC-SHA-256 (as the masked columns are).';
--> statement-breakpoint
COMMENT ON VIEW "fulfillment_masked"."returns" IS 'View for reader roles: fulfillment.returns as a reader may read it (the columns marked in src/db/pii/marks/; personal ones as keyed hashes, values that look like an e-mail, phone or street line hashed too). Order returns (spec 2.9, GET Shipments/Returns). Key: ship_return_id.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."returns"."ship_return_id" IS 'Return identifier (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."returns"."account_number" IS 'Scope: the account number whose call returned it (the record does not carry it).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."returns"."shipment_key" IS 'Shipment identifier (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."returns"."customer_name" IS 'Customer name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."returns"."provider_order_number" IS 'Order number assigned by the service.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."returns"."order_number" IS 'Order number of the customer.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."returns"."order_type_code" IS 'Order type: CLUB (club order), STND (daily order), SPCL (special order), VC (visitor center), DAILY (daily order), SPECIAL (special order), CORP (corp order).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."returns"."order_type_name" IS 'Order type name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."returns"."ship_from_warehouse_code" IS 'Warehouse the order shipped from: GLW (Glenwillow), WDI (Green Island), PSO (Paso Robles), SMA (Santa Maria), SHW (Willamette Valley), DAL (Dallas).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."returns"."consumer_first_name" IS 'Consumer first name. Masked: HMAC-SHA-256 (key in sync.pii_key) of the value lowercased and trimmed, 64 hex digits; equal values hash equal in every masked view; null stays null.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."returns"."consumer_last_name" IS 'Consumer last name. Masked: HMAC-SHA-256 (key in sync.pii_key) of the value lowercased and trimmed, 64 hex digits; equal values hash equal in every masked view; null stays null.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."returns"."consumer_address1" IS 'Consumer address line 1. Masked: HMAC-SHA-256 (key in sync.pii_key) of the value lowercased and trimmed, 64 hex digits; equal values hash equal in every masked view; null stays null.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."returns"."consumer_address2" IS 'Consumer address line 2. Masked: HMAC-SHA-256 (key in sync.pii_key) of the value lowercased and trimmed, 64 hex digits; equal values hash equal in every masked view; null stays null.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."returns"."consumer_city" IS 'Consumer city.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."returns"."consumer_state" IS 'Consumer state.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."returns"."consumer_zip_code" IS 'Consumer ZIP code.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."returns"."notification_email_address" IS 'Notification e-mail address. Masked: HMAC-SHA-256 (key in sync.pii_key) of the value lowercased and trimmed, 64 hex digits; equal values hash equal in every masked view; null stays null.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."returns"."notification_phone_number" IS 'Notification phone number. Masked: HMAC-SHA-256 (key in sync.pii_key) of the value lowercased and trimmed, 64 hex digits; equal values hash equal in every masked view; null stays null.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."returns"."wms_carrier_code" IS 'Carrier code in the warehouse management system.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."returns"."carrier_code" IS 'Carrier code.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."returns"."tracking_number" IS 'Carrier tracking number.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."returns"."tracking_number_url" IS 'URL of the tracking number.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."returns"."tracking_status_url" IS 'URL of the tracking status.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."returns"."return_reason_code" IS 'Return reason code.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."returns"."return_reason_name" IS 'Return reason name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."returns"."processing_status_code" IS 'Return processing status: NEW, IN_PROCESS or RESOLVED.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."returns"."processing_status_name" IS 'Return processing status name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."returns"."resolution_code" IS 'Resolution code.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."returns"."resolution_name" IS 'Resolution name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."returns"."ship_date" IS 'Ship date (date-time).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."returns"."return_date" IS 'Return date (date-time).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."returns"."has_personalizations" IS 'Whether the return has personalizations.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."returns"."vas_order_personalizations" IS 'Value-added-service personalizations as received (JSON array): type, lineNumber, message, options[] of {type, option, message}. Masked: HMAC-SHA-256 (key in sync.pii_key) of the value lowercased and trimmed, 64 hex digits; equal values hash equal in every masked view; null stays null.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."returns"."synced_at" IS 'When fulfillment-sync last wrote this row (only when something in it changed).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."returns"."raw" IS 'The record as received from the API, including members the spec does not detail. Masked: members the allow-list names (codes, quantities, SKUs, dates, statuses, city, state, postal code, country) as received; every other member, at any depth, and every value that looks like an e-mail, phone or street line, replaced by its HMAC-SHA-256 (as the masked columns are).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."returns"."content_hash" IS 'Hash (SHA-1 of its JSON) of raw, kept by fulfillment-sync to recognise an unchanged record without re-reading it. Masked: HMAC-SHA-256 (key in sync.pii_key) of the stored hash; still changes when the record does.';
--> statement-breakpoint
COMMENT ON VIEW "fulfillment_masked"."shipment_events" IS 'View for reader roles: fulfillment.shipment_events as a reader may read it (the columns marked in src/db/pii/marks/; personal ones as keyed hashes, values that look like an e-mail, phone or street line hashed too). Shipment tracking events (spec 2.10 events[]), the shipment''s progress. Key: container_id, event_key.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."shipment_events"."container_id" IS 'Shipment container ID.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."shipment_events"."event_key" IS 'Natural key part: a hash of what eventTime, city, stateOrProvince and description say (the record carries no id): a time as its instant, codes and names without case or extra spacing, texts without extra spacing, so the record sent again in another spelling keeps its key.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."shipment_events"."event_time" IS 'Time of the tracking event (date-time).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."shipment_events"."city" IS 'City.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."shipment_events"."state_or_province" IS 'State or province.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."shipment_events"."description" IS 'Description.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."shipment_events"."synced_at" IS 'When fulfillment-sync last wrote this row (only when something in it changed).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."shipment_events"."raw" IS 'The record as received from the API, including members the spec does not detail. Masked: members the allow-list names (codes, quantities, SKUs, dates, statuses, city, state, postal code, country) as received; every other member, at any depth, and every value that looks like an e-mail, phone or street line, replaced by its HMAC-SHA-256 (as the masked columns are).';
--> statement-breakpoint
COMMENT ON VIEW "fulfillment_masked"."shipment_lines" IS 'View for reader roles: fulfillment.shipment_lines as a reader may read it (the columns marked in src/db/pii/marks/; personal ones as keyed hashes, values that look like an e-mail, phone or street line hashed too). Shipment line items (spec 2.10 lineItems[]). Key: container_id, line_number.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."shipment_lines"."container_id" IS 'Shipment container ID.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."shipment_lines"."line_number" IS 'Line number.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."shipment_lines"."sku" IS 'The customer SKU.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."shipment_lines"."quantity" IS 'Quantity (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."shipment_lines"."synced_at" IS 'When fulfillment-sync last wrote this row (only when something in it changed).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."shipment_lines"."raw" IS 'The record as received from the API, including members the spec does not detail. Masked: members the allow-list names (codes, quantities, SKUs, dates, statuses, city, state, postal code, country) as received; every other member, at any depth, and every value that looks like an e-mail, phone or street line, replaced by its HMAC-SHA-256 (as the masked columns are).';
--> statement-breakpoint
COMMENT ON VIEW "fulfillment_masked"."shipments" IS 'View for reader roles: fulfillment.shipments as a reader may read it (the columns marked in src/db/pii/marks/; personal ones as keyed hashes, values that look like an e-mail, phone or street line hashed too). Shipment update headers (spec 2.10, GET Shipments/Updates), one row per container. Key: container_id.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."shipments"."container_id" IS 'Shipment container ID.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."shipments"."account_number" IS 'Scope: the account number whose call returned it (the record does not carry it).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."shipments"."order_number" IS 'Order number of the customer.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."shipments"."ship_date" IS 'Ship date (date-time).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."shipments"."carrier_name" IS 'Carrier name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."shipments"."tracking_number" IS 'Carrier tracking number.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."shipments"."tracking_number_url" IS 'URL of the tracking number.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."shipments"."status_code" IS 'Shipment status: DELIVERED, EXCEPTION, IN_TRANSIT, RETURNED, SHIPPED.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."shipments"."status_description" IS 'Status description.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."shipments"."synced_at" IS 'When fulfillment-sync last wrote this row (only when something in it changed).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."shipments"."raw" IS 'The shipment update as received (header, lineItems and events), including members the spec does not detail. Masked: members the allow-list names (codes, quantities, SKUs, dates, statuses, city, state, postal code, country) as received; every other member, at any depth, and every value that looks like an e-mail, phone or street line, replaced by its HMAC-SHA-256 (as the masked columns are).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."shipments"."content_hash" IS 'Hash (SHA-1 of its JSON) of raw, kept by fulfillment-sync to recognise an unchanged record without re-reading it. Masked: HMAC-SHA-256 (key in sync.pii_key) of the stored hash; still changes when the record does.';
--> statement-breakpoint
COMMENT ON VIEW "fulfillment_masked"."transfer_in_lines" IS 'View for reader roles: fulfillment.transfer_in_lines as a reader may read it (the columns marked in src/db/pii/marks/; personal ones as keyed hashes, values that look like an e-mail, phone or street line hashed too). IN detail line items (spec 2.6 lineItems[]). Key: supplier_id, order_number, line_number.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfer_in_lines"."supplier_id" IS 'Unique ID of the owner of items (supplier).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfer_in_lines"."order_number" IS 'Order number of the customer.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfer_in_lines"."line_number" IS 'Line number.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfer_in_lines"."header_row_id" IS 'Row ID of the IN header this line belongs to.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfer_in_lines"."inventory_item_id" IS 'Inventory item row ID.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfer_in_lines"."provider_sku" IS 'SKU assigned by the service.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfer_in_lines"."sku" IS 'The customer SKU.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfer_in_lines"."sku_description" IS 'SKU description.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfer_in_lines"."qty_ordered" IS 'Quantity ordered (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfer_in_lines"."qty_received" IS 'Quantity received (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfer_in_lines"."sub_inventory_code" IS 'Sub-inventory code.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfer_in_lines"."sub_inventory_name" IS 'Sub-inventory name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfer_in_lines"."creation_date" IS 'Creation date (date-time).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfer_in_lines"."created_by" IS 'Created by. Masked: HMAC-SHA-256 (key in sync.pii_key) of the value lowercased and trimmed, 64 hex digits; equal values hash equal in every masked view; null stays null.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfer_in_lines"."last_update_date" IS 'Last update date (date-time).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfer_in_lines"."last_updated_by" IS 'Last updated by. Masked: HMAC-SHA-256 (key in sync.pii_key) of the value lowercased and trimmed, 64 hex digits; equal values hash equal in every masked view; null stays null.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfer_in_lines"."synced_at" IS 'When fulfillment-sync last wrote this row (only when something in it changed).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfer_in_lines"."raw" IS 'The record as received from the API, including members the spec does not detail. Masked: members the allow-list names (codes, quantities, SKUs, dates, statuses, city, state, postal code, country) as received; every other member, at any depth, and every value that looks like an e-mail, phone or street line, replaced by its HMAC-SHA-256 (as the masked columns are).';
--> statement-breakpoint
COMMENT ON VIEW "fulfillment_masked"."transfer_in_notes" IS 'View for reader roles: fulfillment.transfer_in_notes as a reader may read it (the columns marked in src/db/pii/marks/; personal ones as keyed hashes, values that look like an e-mail, phone or street line hashed too). IN detail notes (spec 2.6 notes[]). Key: supplier_id, order_number, note_key.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfer_in_notes"."supplier_id" IS 'Unique ID of the owner of items (supplier).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfer_in_notes"."order_number" IS 'Order number of the customer.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfer_in_notes"."note_key" IS 'Natural key part: a hash of what typeCode, noteTimestamp and noteText say (the record carries no id): a time as its instant, codes and names without case or extra spacing, texts without extra spacing, so the record sent again in another spelling keeps its key. Masked: HMAC-SHA-256 (key in sync.pii_key) of the stored hash; still changes when the record does.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfer_in_notes"."type_code" IS 'Note type code.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfer_in_notes"."note_timestamp" IS 'Note timestamp (date-time).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfer_in_notes"."note_text" IS 'Note text. Masked: HMAC-SHA-256 (key in sync.pii_key) of the value lowercased and trimmed, 64 hex digits; equal values hash equal in every masked view; null stays null.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfer_in_notes"."creation_date" IS 'Creation date (date-time).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfer_in_notes"."created_by" IS 'Created by. Masked: HMAC-SHA-256 (key in sync.pii_key) of the value lowercased and trimmed, 64 hex digits; equal values hash equal in every masked view; null stays null.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfer_in_notes"."last_update_date" IS 'Last update date (date-time).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfer_in_notes"."last_updated_by" IS 'Last updated by. Masked: HMAC-SHA-256 (key in sync.pii_key) of the value lowercased and trimmed, 64 hex digits; equal values hash equal in every masked view; null stays null.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfer_in_notes"."synced_at" IS 'When fulfillment-sync last wrote this row (only when something in it changed).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfer_in_notes"."raw" IS 'The record as received from the API, including members the spec does not detail. Masked: members the allow-list names (codes, quantities, SKUs, dates, statuses, city, state, postal code, country) as received; every other member, at any depth, and every value that looks like an e-mail, phone or street line, replaced by its HMAC-SHA-256 (as the masked columns are).';
--> statement-breakpoint
COMMENT ON VIEW "fulfillment_masked"."transfers_in" IS 'View for reader roles: fulfillment.transfers_in as a reader may read it (the columns marked in src/db/pii/marks/; personal ones as keyed hashes, values that look like an e-mail, phone or street line hashed too). Inbound inventory transfers, INs (spec 2.6): list-row fields plus the header fields only the detail call returns. Statuses: PROCESSING, CANCELLED, CLOSED, DRAFT, SUBMITTED. Key: supplier_id, order_number.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_in"."supplier_id" IS 'Unique ID of the owner of items (supplier).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_in"."order_number" IS 'Order number of the IN (needed to cancel it).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_in"."row_id" IS 'Row ID of the IN (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_in"."supplier_name" IS 'Supplier name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_in"."warehouse_code" IS 'Warehouse code: GLW (Glenwillow), WDI (Green Island), PSO (Paso Robles), SMA (Santa Maria), SHW (Willamette Valley), DAL (Dallas); owned inventory may also show MHT and AMC.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_in"."warehouse_name" IS 'Warehouse name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_in"."reference_number" IS 'Any ID chosen by the caller when creating the transfer.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_in"."submitted_date" IS 'Date the IN was submitted (date-time); the IN list filters on it.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_in"."status_code" IS 'IN status: PROCESSING, CANCELLED, CLOSED, DRAFT, SUBMITTED.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_in"."status_name" IS 'Status name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_in"."is_cancellable" IS 'Whether it can still be cancelled.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_in"."is_editable" IS 'Whether it can still be edited.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_in"."delivery_method_code" IS 'Delivery method: PROVIDER_PICKUP (pickup by the service; needs a pickup site) or CLIENT_DROPOFF (client drop-off).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_in"."delivery_method_name" IS 'Delivery method name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_in"."pickup_site_id" IS 'Pickup site ID (from the seller selection in the service portal).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_in"."pickup_site_code" IS 'Pickup site code.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_in"."pickup_site_line1" IS 'Pickup site address line 1. Masked: HMAC-SHA-256 (key in sync.pii_key) of the value lowercased and trimmed, 64 hex digits; equal values hash equal in every masked view; null stays null.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_in"."pickup_site_line2" IS 'Pickup site address line 2. Masked: HMAC-SHA-256 (key in sync.pii_key) of the value lowercased and trimmed, 64 hex digits; equal values hash equal in every masked view; null stays null.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_in"."pickup_site_city" IS 'Pickup site city.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_in"."pickup_site_state_code" IS 'Pickup site state code.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_in"."pickup_site_postal_code" IS 'Pickup site postal code.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_in"."pickup_site_country_code" IS 'Pickup site country code.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_in"."expected_date" IS 'When the items are expected (date-time).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_in"."creation_date" IS 'Creation date (date-time).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_in"."created_by" IS 'Created by. Masked: HMAC-SHA-256 (key in sync.pii_key) of the value lowercased and trimmed, 64 hex digits; equal values hash equal in every masked view; null stays null.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_in"."last_update_date" IS 'Last update date (date-time).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_in"."last_updated_by" IS 'Last updated by. Masked: HMAC-SHA-256 (key in sync.pii_key) of the value lowercased and trimmed, 64 hex digits; equal values hash equal in every masked view; null stays null.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_in"."pickup_site_phone" IS 'Pickup site phone (IN detail only). Masked: HMAC-SHA-256 (key in sync.pii_key) of the value lowercased and trimmed, 64 hex digits; equal values hash equal in every masked view; null stays null.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_in"."pickup_site_fax" IS 'Pickup site fax (IN detail only). Masked: HMAC-SHA-256 (key in sync.pii_key) of the value lowercased and trimmed, 64 hex digits; equal values hash equal in every masked view; null stays null.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_in"."closed_date" IS 'Date the IN was closed (date-time; IN detail only).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_in"."notification_status_code" IS 'Notification status code (IN detail only).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_in"."notification_status_name" IS 'Notification status name (IN detail only).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_in"."notification_status_message" IS 'Notification status message (IN detail only). Masked: HMAC-SHA-256 (key in sync.pii_key) of the value lowercased and trimmed, 64 hex digits; equal values hash equal in every masked view; null stays null.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_in"."detail_fetched_at" IS 'When the detail call was last made for this row; null if never.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_in"."synced_at" IS 'When fulfillment-sync last wrote this row (only when something in it changed).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_in"."raw" IS 'The IN list row as received, including members the spec does not detail. Masked: members the allow-list names (codes, quantities, SKUs, dates, statuses, city, state, postal code, country) as received; every other member, at any depth, and every value that looks like an e-mail, phone or street line, replaced by its HMAC-SHA-256 (as the masked columns are).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_in"."content_hash" IS 'Hash (SHA-1 of its JSON) of raw, kept by fulfillment-sync to recognise an unchanged record without re-reading it. Masked: HMAC-SHA-256 (key in sync.pii_key) of the stored hash; still changes when the record does.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_in"."detail_raw" IS 'The detail header as received from the detail call, including members the spec does not detail. Masked: members the allow-list names (codes, quantities, SKUs, dates, statuses, city, state, postal code, country) as received; every other member, at any depth, and every value that looks like an e-mail, phone or street line, replaced by its HMAC-SHA-256 (as the masked columns are).';
--> statement-breakpoint
COMMENT ON VIEW "fulfillment_masked"."transfers_out" IS 'View for reader roles: fulfillment.transfers_out as a reader may read it (the columns marked in src/db/pii/marks/; personal ones as keyed hashes, values that look like an e-mail, phone or street line hashed too). Outbound inventory transfers, OUTs (spec 2.7, POST Transfers/OUTs/Search). Key: supplier_id, order_number.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_out"."supplier_id" IS 'Unique ID of the owner of items; the scope supplier when the row carries none.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_out"."order_number" IS 'Order number of the customer.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_out"."supplier_name" IS 'Supplier name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_out"."warehouse_code" IS 'Warehouse code: GLW (Glenwillow), WDI (Green Island), PSO (Paso Robles), SMA (Santa Maria), SHW (Willamette Valley), DAL (Dallas); owned inventory may also show MHT and AMC.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_out"."warehouse_name" IS 'Warehouse name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_out"."reference_number" IS 'Any ID chosen by the caller when creating the transfer.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_out"."ordered_date" IS 'Date the OUT was ordered (date-time).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_out"."requested_priority" IS 'Requested priority.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_out"."request_date" IS 'Requested date (date-time).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_out"."status_code" IS 'OUT status code.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_out"."status" IS 'OUT status.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_out"."created_by" IS 'Created by. Masked: HMAC-SHA-256 (key in sync.pii_key) of the value lowercased and trimmed, 64 hex digits; equal values hash equal in every masked view; null stays null.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_out"."is_editable" IS 'Whether it can still be edited.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_out"."synced_at" IS 'When fulfillment-sync last wrote this row (only when something in it changed).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_out"."raw" IS 'The record as received from the API, including members the spec does not detail. Masked: members the allow-list names (codes, quantities, SKUs, dates, statuses, city, state, postal code, country) as received; every other member, at any depth, and every value that looks like an e-mail, phone or street line, replaced by its HMAC-SHA-256 (as the masked columns are).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."transfers_out"."content_hash" IS 'Hash (SHA-1 of its JSON) of raw, kept by fulfillment-sync to recognise an unchanged record without re-reading it. Masked: HMAC-SHA-256 (key in sync.pii_key) of the stored hash; still changes when the record does.';
