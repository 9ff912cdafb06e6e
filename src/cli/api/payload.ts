import type { DetailResult, ListResult, WriteResult } from '../../api/index.ts';
import type { ApiAnswerKind } from './apiCommands.ts';

/** The envelope payload an operation answered, rebuilt from the client's result, plus what failed validation. */
export interface ApiPayload {
  payload: unknown;
  /** Records that failed their schema: `index: reason` (they are still in the payload, as received). */
  rejected: string[];
}

/**
 * Rebuilds the payload as upstream sent it: a list keeps its order, with rejected records back in their
 * places as received; a detail is its record (or the raw record that failed validation, or null); a
 * write is what it answered.
 */
export function payloadOf(kind: ApiAnswerKind, result: unknown): ApiPayload {
  if (kind === 'write') return { payload: (result as WriteResult).raw, rejected: [] };
  const { rejected } = result as ListResult<unknown> | DetailResult<unknown>;
  const reasons = rejected.map((r) => `${r.index}: ${r.reason}`);
  if (kind === 'detail') {
    const { record } = result as DetailResult<unknown>;
    return { payload: record ?? rejected[0]?.raw ?? null, rejected: reasons };
  }
  const { records } = result as ListResult<unknown>;
  const rejectedAt = new Map(rejected.map((r) => [r.index, r.raw]));
  const payload: unknown[] = [];
  let next = 0;
  for (let index = 0; index < records.length + rejected.length; index += 1) {
    payload.push(rejectedAt.has(index) ? rejectedAt.get(index) : records[next++]);
  }
  return { payload, rejected: reasons };
}
