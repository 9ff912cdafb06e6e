import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, primaryKey, text } from 'drizzle-orm/pg-core';
import { contentHash, fulfillmentSchema, keyText, num, raw, syncedAt, tz } from './columns.ts';

/**
 * Order detail headers (spec 2.2 OrderDetailHeader). The detail members the spec does not detail
 * (packages, contents, trackings, notes, billings, account-payable headers and lines) are kept
 * whole in jsonb columns of the same (snake_case) names.
 */
export const orders = fulfillmentSchema.table(
  'orders',
  {
    accountNumber: keyText('account_number'),
    orderNumber: keyText('order_number'),
    customerName: text('customer_name'),
    warehouseCode: text('warehouse_code'),
    warehouseName: text('warehouse_name'),
    providerOrderNumber: text('provider_order_number'),
    receivedDate: tz('received_date'),
    creationDate: tz('creation_date').notNull(),
    customerOrderDate: tz('customer_order_date'),
    requestedShipDate: tz('requested_ship_date'),
    fulfillmentDate: tz('fulfillment_date'),
    shippedDate: tz('shipped_date'),
    batchNumber: text('batch_number'),
    orderTypeCode: text('order_type_code'),
    orderTypeName: text('order_type_name'),
    requestedServiceLevel: text('requested_service_level'),
    plannedServiceLevel: text('planned_service_level'),
    orderStatusCode: text('order_status_code'),
    orderStatusName: text('order_status_name'),
    collapsedStatus: text('collapsed_status'),
    notificationEmail: text('notification_email'),
    notificationPhone: text('notification_phone'),
    giftMessage: text('gift_message'),
    shippingInstructions: text('shipping_instructions'),
    complianceRoute: text('compliance_route'),
    fulfillmentRoute: text('fulfillment_route'),
    packingSlipCode: text('packing_slip_code'),
    packingSlipName: text('packing_slip_name'),
    isOnsitePurchase: boolean('is_onsite_purchase').notNull(),
    isLineHaul: boolean('is_line_haul').notNull(),
    isEditable: boolean('is_editable').notNull(),
    isCancellable: boolean('is_cancellable').notNull(),
    isBackOrdered: boolean('is_back_ordered').notNull(),
    hasInventoryHold: boolean('has_inventory_hold').notNull(),
    slaStatusCode: text('sla_status_code'),
    slaStatusName: text('sla_status_name'),
    slaDate: tz('sla_date'),
    notificationTemplateCode: text('notification_template_code'),
    notificationTemplateName: text('notification_template_name'),
    packagingTypeCode: text('packaging_type_code'),
    packagingTypeName: text('packaging_type_name'),
    vasOrderPersonalizations: jsonb('vas_order_personalizations'),
    packages: jsonb('packages'),
    contents: jsonb('contents'),
    trackings: jsonb('trackings'),
    notes: jsonb('notes'),
    billings: jsonb('billings'),
    accountPayableHeaders: jsonb('account_payable_headers'),
    accountPayableLines: jsonb('account_payable_lines'),
    syncedAt: syncedAt(),
    /** The whole order detail as received (header, lines, holds, ...). */
    raw: raw(),
    contentHash: contentHash(),
  },
  (t) => [
    primaryKey({ name: 'orders_pk', columns: [t.accountNumber, t.orderNumber] }),
    index('orders_order_number_idx').on(t.orderNumber),
    index('orders_provider_order_number_idx').on(t.providerOrderNumber),
    index('orders_creation_date_idx').on(t.creationDate),
    index('orders_shipped_date_idx').on(t.shippedDate),
    index('orders_order_status_code_idx').on(t.orderStatusCode),
  ],
);

const orderKey = () => ({
  accountNumber: keyText('account_number'),
  orderNumber: keyText('order_number'),
});

/** Order line items (spec 2.2 OrderDetailLine); null line/component numbers are stored as ''. */
export const orderLines = fulfillmentSchema.table(
  'order_lines',
  {
    ...orderKey(),
    lineNumber: keyText('line_number'),
    componentNumber: keyText('component_number'),
    inventoryItemId: text('inventory_item_id'),
    sku: text('sku'),
    description: text('description'),
    isShippable: boolean('is_shippable'),
    quantityOrdered: integer('quantity_ordered'),
    quantityReserved: integer('quantity_reserved'),
    quantityShipped: integer('quantity_shipped'),
    itemShortage: integer('item_shortage'),
    uom: text('uom'),
    unitPrice: num('unit_price'),
    subInventoryCode: text('sub_inventory_code'),
    subInventoryName: text('sub_inventory_name'),
    isBomComponent: boolean('is_bom_component'),
    vasOrderPersonalizations: jsonb('vas_order_personalizations'),
    syncedAt: syncedAt(),
    raw: raw(),
  },
  (t) => [
    primaryKey({
      name: 'order_lines_pk',
      columns: [t.accountNumber, t.orderNumber, t.lineNumber, t.componentNumber],
    }),
    index('order_lines_sku_idx').on(t.sku),
  ],
);

/** Order holds (spec 2.2 OrderDetailHold). */
export const orderHolds = fulfillmentSchema.table(
  'order_holds',
  {
    ...orderKey(),
    /** A hash of the hold's identity (holdName, creationDate): holds carry no id. */
    holdKey: keyText('hold_key'),
    holdStatus: text('hold_status'),
    holdName: text('hold_name'),
    holdDescription: text('hold_description'),
    holdComment: text('hold_comment'),
    releaseReason: text('release_reason'),
    releaseComment: text('release_comment'),
    expirationDate: tz('expiration_date'),
    releaseDate: tz('release_date'),
    creationDate: tz('creation_date').notNull(),
    isDirectlyReleasable: boolean('is_directly_releasable').notNull(),
    syncedAt: syncedAt(),
    raw: raw(),
  },
  (t) => [primaryKey({ name: 'order_holds_pk', columns: [t.accountNumber, t.orderNumber, t.holdKey] })],
);

/** Order messages (spec 2.2 OrderDetailMessage). */
export const orderMessages = fulfillmentSchema.table(
  'order_messages',
  {
    ...orderKey(),
    /** A hash of the message (messageTime, messageType, message): messages carry no id. */
    messageKey: keyText('message_key'),
    messageType: text('message_type'),
    message: text('message'),
    messageTime: tz('message_time').notNull(),
    syncedAt: syncedAt(),
    raw: raw(),
  },
  (t) => [primaryKey({ name: 'order_messages_pk', columns: [t.accountNumber, t.orderNumber, t.messageKey] })],
);

/** The address roles of an order detail: soldToConsumers, shipToConsumers, deliverToConsumers. */
export const ORDER_ADDRESS_ROLES = ['sold_to', 'ship_to', 'deliver_to'] as const;
export type OrderAddressRole = (typeof ORDER_ADDRESS_ROLES)[number];

/** Consumer addresses of an order (spec 2.2), by role and position in their array. */
export const orderAddresses = fulfillmentSchema.table(
  'order_addresses',
  {
    ...orderKey(),
    role: text('role').$type<OrderAddressRole>().notNull(),
    /** 0-based index of the address in its array. */
    position: integer('position').notNull(),
    isResidentialAddress: boolean('is_residential_address').notNull(),
    firstName: text('first_name'),
    middleName: text('middle_name'),
    lastName: text('last_name'),
    companyName: text('company_name'),
    address1: text('address1'),
    address2: text('address2'),
    address3: text('address3'),
    city: text('city'),
    stateCode: text('state_code'),
    stateName: text('state_name'),
    postalCode: text('postal_code'),
    countryCode: text('country_code'),
    countryName: text('country_name'),
    deliveryStatusCode: text('delivery_status_code'),
    deliveryStatusName: text('delivery_status_name'),
    deliveryAddressTypeCode: text('delivery_address_type_code'),
    deliveryAddressTypeName: text('delivery_address_type_name'),
    syncedAt: syncedAt(),
    raw: raw(),
  },
  (t) => [
    primaryKey({ name: 'order_addresses_pk', columns: [t.accountNumber, t.orderNumber, t.role, t.position] }),
    check('order_addresses_role_check', sql`${t.role} in ('sold_to', 'ship_to', 'deliver_to')`),
  ],
);
