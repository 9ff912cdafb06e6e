import type { OrderDetail } from '../../src/api/records/index.ts';

/**
 * An order header as the upstream sends it for a plain shipped order of account ACC1 (every flag
 * false); `overrides` sets what a test is about.
 */
export function orderHeader(
  orderNumber: string,
  overrides: Partial<OrderDetail['header']> = {},
): OrderDetail['header'] {
  return {
    accountNumber: 'ACC1',
    orderNumber,
    creationDate: '2026-06-01T10:00:00',
    orderStatusCode: 'SHIPPED',
    isOnsitePurchase: false,
    isLineHaul: false,
    isEditable: false,
    isCancellable: false,
    isBackOrdered: false,
    hasInventoryHold: false,
    ...overrides,
  };
}
