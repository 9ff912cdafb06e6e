/** The records of the fulfillment API spec, as schemas and types. */
export * from './enums.ts';
export * from './envelope.ts';
export * from './holdAtLocation.ts';
export * from './inventory.ts';
export * from './invoice.ts';
export * from './orderDetail.ts';
export * from './packingSlip.ts';
export * from './primitives.ts';
export * from './product.ts';
export * from './shipmentReturn.ts';
export * from './shipmentUpdate.ts';
export * from './transferIn.ts';
export * from './transferOut.ts';
