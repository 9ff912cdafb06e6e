/** Values the spec names. Enumerations are open: the service may send others. */
export const WAREHOUSE_CODES = ['GLW', 'WDI', 'PSO', 'SMA', 'SHW', 'DAL'] as const;
/** Owned-inventory rows may additionally carry these. */
export const EXTRA_INVENTORY_WAREHOUSE_CODES = ['MHT', 'AMC'] as const;
export const ITEM_TYPE_CODES = ['ACC', 'FOOD', 'GSET', 'CARD', 'PACK', 'WINE', 'PTO', 'INSERT'] as const;
export const ORDER_TYPE_CODES = ['CLUB', 'STND', 'SPCL', 'VC', 'DAILY', 'SPECIAL', 'CORP'] as const;
export const ORDER_STATUS_CODES = ['DELIVERED', 'EXCEPTION', 'IN_TRANSIT', 'RETURNED', 'SHIPPED'] as const;
export const SHIPMENT_STATUS_CODES = ORDER_STATUS_CODES;
export const IN_STATUS_CODES = ['PROCESSING', 'CANCELLED', 'CLOSED', 'DRAFT', 'SUBMITTED'] as const;
export const IN_OPEN_STATUS_CODES = ['PROCESSING', 'DRAFT', 'SUBMITTED'] as const;
export const DELIVERY_METHOD_CODES = ['PROVIDER_PICKUP', 'CLIENT_DROPOFF'] as const;
export const RETURN_STATUS_CODES = ['NEW', 'IN_PROCESS', 'RESOLVED'] as const;
export const INVOICE_TYPES = ['DIRECT', 'STORAGE', 'RETURNS', 'CARRIER', 'OUT'] as const;
export const ALCOHOL_TYPES = ['SPARKLING', 'SPIRIT', 'STILL'] as const;
export const CARRIERS = ['CarrierA', 'CarrierB'] as const;
