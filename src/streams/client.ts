import type { FulfillmentClient } from '../api/index.ts';

/**
 * The client every stream receives: the typed API client (src/api). Streams name it through this
 * alias so that tests and benchmarks can hand in anything with the same shape.
 */
export type StreamClient = FulfillmentClient;
