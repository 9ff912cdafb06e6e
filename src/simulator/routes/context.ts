import type { OperationId } from '../../api/operations.ts';
import type { QueryParamTable } from '../../api/queryParams.ts';
import type { VolumeShipments } from '../volume.ts';
import type { World } from '../world/state.ts';

/** What every route handler receives. */
export interface RouteContext {
  world: World;
  table: QueryParamTable;
  volume: VolumeShipments | undefined;
  /** Simulated now, after the world has caught up with it. */
  now: number;
}

/** A parsed request to /api/v1/... */
export interface SimRequest {
  op: OperationId;
  /** Path parameters, decoded. */
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
}

/** Rows produced on demand (volume data), so a million records are never held at once. */
export class LazyRows {
  constructor(
    readonly length: number,
    readonly at: (index: number) => unknown,
  ) {}
}

/** A handler's answer, before faults and the row cap are applied. */
export interface Answer {
  status: number;
  isSuccess: boolean;
  message: string | null;
  payload: unknown;
}

export type Handler = (ctx: RouteContext, req: SimRequest) => Answer;

export const ok = (payload: unknown): Answer => ({ status: 200, isSuccess: true, message: null, payload });

/** A request rule (spec 7.4 / 8) was broken: HTTP 400 with isSuccess false. */
export const badRequest = (message: string): Answer => ({
  status: 400,
  isSuccess: false,
  message,
  payload: null,
});

export const notFound = (message: string): Answer => ({
  status: 404,
  isSuccess: false,
  message,
  payload: null,
});

/** Thrown by parameter helpers; the router turns it into a 400 answer. */
export class RequestRuleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RequestRuleError';
  }
}
