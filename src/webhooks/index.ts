/**
 * Outgoing webhooks (Standard Webhooks), by part: endpoints/ (what an endpoint is and may be sent
 * to), delivery/ (claim and its policy, dispatch, outcomes/, post/ with signing, relay/ from events
 * to deliveries), recovery/ (replay, recover, resend, sweeper), views/ (what the CLI reads) and
 * listen/ (the local receiver behind `webhooks listen`).
 */

export * from './delivery/claim.ts';
export * from './delivery/deliver.ts';
export * from './delivery/deliveryStates.ts';
export * from './delivery/dispatcher.ts';
export * from './delivery/listen.ts';
export * from './delivery/outcomes/outcomeRecord.ts';
export * from './delivery/outcomes/outcomes.ts';
export * from './delivery/outcomes/pause.ts';
export * from './delivery/post/attempt.ts';
export * from './delivery/post/post.ts';
export * from './delivery/post/sign.ts';
export * from './delivery/relay/relay.ts';
export * from './delivery/relay/relayLoop.ts';
export * from './delivery/runtime.ts';
export * from './delivery/schedule.ts';
export * from './delivery/sendContext.ts';
export * from './delivery/testDelivery.ts';
export * from './endpoints/endpointFilter.ts';
export * from './endpoints/endpointSecrets.ts';
export * from './endpoints/endpointSettings.ts';
export * from './endpoints/endpoints.ts';
export * from './endpoints/endpointUrl.ts';
export * from './endpoints/health.ts';
export * from './endpoints/safeLookup.ts';
export * from './endpoints/secret.ts';
export * from './endpoints/targetPolicy.ts';
export * from './listen/localReceiver.ts';
export * from './recovery/recover.ts';
export * from './recovery/replay.ts';
export * from './recovery/resend.ts';
export * from './recovery/sweeper.ts';
export * from './views/attemptLog.ts';
export * from './views/deliveries.ts';
export * from './views/endpointStats.ts';
