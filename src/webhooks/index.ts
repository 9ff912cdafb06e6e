/** Outgoing webhooks (Standard Webhooks): endpoints, signing, delivery, relay, replay, runtime. */
export * from './attempt.ts';
export * from './deliver.ts';
export * from './deliveries.ts';
export * from './deliveryStates.ts';
export * from './endpoints.ts';
export * from './endpointUrl.ts';
export * from './health.ts';
export * from './inProcessQueue.ts';
export * from './relay.ts';
export * from './relayLoop.ts';
export * from './replay.ts';
export * from './runtime.ts';
export * from './schedule.ts';
export * from './secret.ts';
export * from './sign.ts';
export * from './sweeper.ts';
