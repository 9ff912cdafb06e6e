COMMENT ON COLUMN "fulfillment"."order_addresses"."first_name" IS 'First name. PII (consumer personal data): a reader role reads a keyed hash of it (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."order_addresses"."middle_name" IS 'Middle name. PII (consumer personal data): a reader role reads a keyed hash of it (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."order_addresses"."last_name" IS 'Last name. PII (consumer personal data): a reader role reads a keyed hash of it (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."order_addresses"."company_name" IS 'Company name. PII (consumer personal data): a reader role reads a keyed hash of it (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."order_addresses"."address1" IS 'Address line 1. PII (consumer personal data): a reader role reads a keyed hash of it (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."order_addresses"."address2" IS 'Address line 2. PII (consumer personal data): a reader role reads a keyed hash of it (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."order_addresses"."address3" IS 'Address line 3. PII (consumer personal data): a reader role reads a keyed hash of it (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."order_addresses"."raw" IS 'The record as received from the API, including members the spec does not detail. PII inside (consumer names, e-mails, phones, street lines): a reader role reads it with those members replaced by keyed hashes (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."order_lines"."vas_order_personalizations" IS 'Value-added-service personalizations as received (JSON array): type, lineNumber, message, options[] of {type, option, message}. PII (consumer personal data): a reader role reads a keyed hash of it (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."order_lines"."raw" IS 'The record as received from the API, including members the spec does not detail. PII inside (consumer names, e-mails, phones, street lines): a reader role reads it with those members replaced by keyed hashes (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."orders"."notification_email" IS 'Notification e-mail. PII (consumer personal data): a reader role reads a keyed hash of it (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."orders"."notification_phone" IS 'Notification phone. PII (consumer personal data): a reader role reads a keyed hash of it (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."orders"."gift_message" IS 'Gift message. PII (consumer personal data): a reader role reads a keyed hash of it (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."orders"."shipping_instructions" IS 'Shipping instructions. PII (consumer personal data): a reader role reads a keyed hash of it (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."orders"."vas_order_personalizations" IS 'Value-added-service personalizations as received (JSON array): type, lineNumber, message, options[] of {type, option, message}. PII (consumer personal data): a reader role reads a keyed hash of it (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."orders"."packages" IS 'Order packages as received (JSON array; fields beyond shipmentKey are not shown in the spec). PII inside (consumer names, e-mails, phones, street lines): a reader role reads it with those members replaced by keyed hashes (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."orders"."contents" IS 'Order contents as received (JSON array; fields not shown in the spec). PII inside (consumer names, e-mails, phones, street lines): a reader role reads it with those members replaced by keyed hashes (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."orders"."trackings" IS 'Shipment tracking history as received (JSON array; fields not shown in the spec). PII inside (consumer names, e-mails, phones, street lines): a reader role reads it with those members replaced by keyed hashes (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."orders"."notes" IS 'Order notes as received (JSON array; fields not shown in the spec). PII inside (consumer names, e-mails, phones, street lines): a reader role reads it with those members replaced by keyed hashes (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."orders"."billings" IS 'Billing history as received (JSON array; fields not shown in the spec). PII inside (consumer names, e-mails, phones, street lines): a reader role reads it with those members replaced by keyed hashes (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."orders"."account_payable_headers" IS 'Account-payable headers as received (JSON array; fields not shown in the spec). PII inside (consumer names, e-mails, phones, street lines): a reader role reads it with those members replaced by keyed hashes (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."orders"."account_payable_lines" IS 'Account-payable lines as received (JSON array; fields not shown in the spec). PII inside (consumer names, e-mails, phones, street lines): a reader role reads it with those members replaced by keyed hashes (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."orders"."raw" IS 'The order detail as received (header, lines, holds, messages, addresses and the rest), including members the spec does not detail. PII inside (consumer names, e-mails, phones, street lines): a reader role reads it with those members replaced by keyed hashes (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."orders"."content_hash" IS 'Hash (SHA-1 of its JSON) of raw, kept by fulfillment-sync to recognise an unchanged record without re-reading it. PII-derived (an unkeyed hash over personal data): a reader role reads a keyed hash of it (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON TABLE "sync"."pii_key" IS 'The secret key of the PII masking (one row): the views of schema fulfillment_masked give reader roles HMAC-SHA-256 hashes keyed with it, so nobody who cannot read schema sync can hash a guessed e-mail or name to match. `migrate` writes 64 random bytes when the row is missing. Replacing the key changes every masked value at once (consistently, since masking happens at query time); deleting it makes them all null until the next migrate.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."pii_key"."id" IS 'Always 1: there is one key.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."pii_key"."key" IS 'The HMAC key (at least 32 bytes; migrate writes 64 random bytes).';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."pii_key"."created_at" IS 'When the key was written.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."return_lines"."vas_order_personalizations" IS 'Value-added-service personalizations as received (JSON array): type, lineNumber, message, options[] of {type, option, message}. PII (consumer personal data): a reader role reads a keyed hash of it (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."return_lines"."raw" IS 'The record as received from the API, including members the spec does not detail. PII inside (consumer names, e-mails, phones, street lines): a reader role reads it with those members replaced by keyed hashes (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."returns"."consumer_first_name" IS 'Consumer first name. PII (consumer personal data): a reader role reads a keyed hash of it (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."returns"."consumer_last_name" IS 'Consumer last name. PII (consumer personal data): a reader role reads a keyed hash of it (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."returns"."consumer_address1" IS 'Consumer address line 1. PII (consumer personal data): a reader role reads a keyed hash of it (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."returns"."consumer_address2" IS 'Consumer address line 2. PII (consumer personal data): a reader role reads a keyed hash of it (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."returns"."notification_email_address" IS 'Notification e-mail address. PII (consumer personal data): a reader role reads a keyed hash of it (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."returns"."notification_phone_number" IS 'Notification phone number. PII (consumer personal data): a reader role reads a keyed hash of it (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."returns"."vas_order_personalizations" IS 'Value-added-service personalizations as received (JSON array): type, lineNumber, message, options[] of {type, option, message}. PII (consumer personal data): a reader role reads a keyed hash of it (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."returns"."raw" IS 'The record as received from the API, including members the spec does not detail. PII inside (consumer names, e-mails, phones, street lines): a reader role reads it with those members replaced by keyed hashes (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."returns"."content_hash" IS 'Hash (SHA-1 of its JSON) of raw, kept by fulfillment-sync to recognise an unchanged record without re-reading it. PII-derived (an unkeyed hash over personal data): a reader role reads a keyed hash of it (fulfillment_masked).';
--> statement-breakpoint
COMMENT ON VIEW "fulfillment_masked"."order_addresses" IS 'View for reader roles: fulfillment.order_addresses with consumer personal data masked (same columns; the columns marked PII there are keyed hashes here). Consumer addresses of an order (spec 2.2 soldToConsumers, shipToConsumers, deliverToConsumers). Key: account_number, order_number, role, position.';
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
COMMENT ON COLUMN "fulfillment_masked"."order_addresses"."raw" IS 'The record as received from the API, including members the spec does not detail. Masked: consumer names, e-mails, phones and street lines inside are replaced by their HMAC-SHA-256 (as the masked columns are); every other member as received.';
--> statement-breakpoint
COMMENT ON VIEW "fulfillment_masked"."order_lines" IS 'View for reader roles: fulfillment.order_lines with consumer personal data masked (same columns; the columns marked PII there are keyed hashes here). Order line items (spec 2.2 OrderDetailLine). Key: account_number, order_number, line_number, component_number (null stored as '''').';
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
COMMENT ON COLUMN "fulfillment_masked"."order_lines"."raw" IS 'The record as received from the API, including members the spec does not detail. Masked: consumer names, e-mails, phones and street lines inside are replaced by their HMAC-SHA-256 (as the masked columns are); every other member as received.';
--> statement-breakpoint
COMMENT ON VIEW "fulfillment_masked"."orders" IS 'View for reader roles: fulfillment.orders with consumer personal data masked (same columns; the columns marked PII there are keyed hashes here). Order detail headers (spec 2.2 OrderDetailHeader, GET Orders/Detail), fetched for orders named by changed shipments and returns. Key: account_number, order_number.';
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
COMMENT ON COLUMN "fulfillment_masked"."orders"."packages" IS 'Order packages as received (JSON array; fields beyond shipmentKey are not shown in the spec). Masked: consumer names, e-mails, phones and street lines inside are replaced by their HMAC-SHA-256 (as the masked columns are); every other member as received.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."contents" IS 'Order contents as received (JSON array; fields not shown in the spec). Masked: consumer names, e-mails, phones and street lines inside are replaced by their HMAC-SHA-256 (as the masked columns are); every other member as received.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."trackings" IS 'Shipment tracking history as received (JSON array; fields not shown in the spec). Masked: consumer names, e-mails, phones and street lines inside are replaced by their HMAC-SHA-256 (as the masked columns are); every other member as received.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."notes" IS 'Order notes as received (JSON array; fields not shown in the spec). Masked: consumer names, e-mails, phones and street lines inside are replaced by their HMAC-SHA-256 (as the masked columns are); every other member as received.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."billings" IS 'Billing history as received (JSON array; fields not shown in the spec). Masked: consumer names, e-mails, phones and street lines inside are replaced by their HMAC-SHA-256 (as the masked columns are); every other member as received.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."account_payable_headers" IS 'Account-payable headers as received (JSON array; fields not shown in the spec). Masked: consumer names, e-mails, phones and street lines inside are replaced by their HMAC-SHA-256 (as the masked columns are); every other member as received.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."account_payable_lines" IS 'Account-payable lines as received (JSON array; fields not shown in the spec). Masked: consumer names, e-mails, phones and street lines inside are replaced by their HMAC-SHA-256 (as the masked columns are); every other member as received.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."synced_at" IS 'When fulfillment-sync last wrote this row (only when something in it changed).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."raw" IS 'The order detail as received (header, lines, holds, messages, addresses and the rest), including members the spec does not detail. Masked: consumer names, e-mails, phones and street lines inside are replaced by their HMAC-SHA-256 (as the masked columns are); every other member as received.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."orders"."content_hash" IS 'Hash (SHA-1 of its JSON) of raw, kept by fulfillment-sync to recognise an unchanged record without re-reading it. Masked: HMAC-SHA-256 (key in sync.pii_key) of the stored hash; still changes when the record does.';
--> statement-breakpoint
COMMENT ON VIEW "fulfillment_masked"."return_lines" IS 'View for reader roles: fulfillment.return_lines with consumer personal data masked (same columns; the columns marked PII there are keyed hashes here). Return line items (spec 2.9 lineItems[]). Key: ship_return_id, line_number, component_number (null stored as 0).';
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
COMMENT ON COLUMN "fulfillment_masked"."return_lines"."raw" IS 'The record as received from the API, including members the spec does not detail. Masked: consumer names, e-mails, phones and street lines inside are replaced by their HMAC-SHA-256 (as the masked columns are); every other member as received.';
--> statement-breakpoint
COMMENT ON VIEW "fulfillment_masked"."returns" IS 'View for reader roles: fulfillment.returns with consumer personal data masked (same columns; the columns marked PII there are keyed hashes here). Order returns (spec 2.9, GET Shipments/Returns). Key: ship_return_id.';
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
COMMENT ON COLUMN "fulfillment_masked"."returns"."raw" IS 'The record as received from the API, including members the spec does not detail. Masked: consumer names, e-mails, phones and street lines inside are replaced by their HMAC-SHA-256 (as the masked columns are); every other member as received.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment_masked"."returns"."content_hash" IS 'Hash (SHA-1 of its JSON) of raw, kept by fulfillment-sync to recognise an unchanged record without re-reading it. Masked: HMAC-SHA-256 (key in sync.pii_key) of the stored hash; still changes when the record does.';
