/** Derived events: pure rules, the dispatcher and the outbox. */
export * from './derive.ts';
export * from './eventId.ts';
export * from './trackingEventKey.ts';
export * from './types.ts';
