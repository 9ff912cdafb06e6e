/** Derived events: pure rules, the dispatcher, the outbox, the engine's sink and the tail reader. */
export * from './derive.ts';
export * from './eventId.ts';
export * from './eventRow.ts';
export * from './outbox.ts';
export * from './readEvent.ts';
export * from './sink.ts';
export * from './tail.ts';
export * from './trackingEventKey.ts';
export * from './types.ts';
