import type { z } from 'zod';
import type { ClientLogger } from './callHooks.ts';
import { AnswerTooLargeError } from './errors.ts';
import type { OperationId } from './operations.ts';
import type { CallOptions } from './params.ts';
import {
  type QueryMeaning,
  type QueryOperation,
  type QueryParamTable,
  type QueryValue,
  toQueryPairs,
} from './queryParams.ts';
import { checkPathParams, checkScopedRange, enforce } from './requestRules.ts';
import type { SettingNames } from './settingNames.ts';
import type { Transport } from './transport.ts';
import {
  type DetailResult,
  type ListResult,
  readWritePayload,
  validateDetail,
  validateList,
} from './validate.ts';

/** The client options these calls read when they run. */
interface CallSettings {
  logger?: ClientLogger;
  maxRowsPerCall?: number;
}

/** What a list or write call sends besides its operation. */
type RequestParts = { query?: [string, string][]; pathParams?: Record<string, string>; body?: unknown };

/** Fails a list answer of `cap` rows or more: exactly the cap may be an answer the upstream cut short. */
function checkRowCap(
  operation: OperationId,
  rows: number,
  cap: number | undefined,
  name: string,
  payload: unknown,
): void {
  if (!cap || rows < cap) return;
  throw new AnswerTooLargeError(
    `${operation}: answer has ${rows} rows, at or over ${name}=${cap} (an answer may be cut at the cap without saying so); ask for a smaller range or raise ${name}`,
    { operation, status: 200 },
    Array.isArray(payload) ? payload : [],
  );
}

/**
 * The kinds of call the 17 operations are made of, over one transport: a list (validated per
 * record, capped, rejects and repairs logged), a detail (path parameters checked first), a write
 * (its answered strings), and the query pairs of an operation under the effective parameter names.
 */
export function createOperationCalls(
  send: Transport,
  queryParams: QueryParamTable,
  settingNames: SettingNames,
  settings: CallSettings,
) {
  function query<Op extends QueryOperation>(op: Op, values: Partial<Record<QueryMeaning<Op>, QueryValue>>) {
    return toQueryPairs(queryParams, op, values);
  }

  /** A list call: every record validated on its own, the row cap checked, rejects and repairs logged. */
  async function list<S extends z.ZodType>(
    operation: OperationId,
    schema: S,
    request: RequestParts,
    call: CallOptions | undefined,
  ): Promise<ListResult<z.infer<S>>> {
    const answer = await send({ operation, ...request, signal: call?.signal });
    const result = validateList(operation, schema, answer.payload);
    checkRowCap(
      operation,
      result.records.length + result.rejected.length,
      settings.maxRowsPerCall,
      settingNames.maxRowsPerCall,
      answer.payload,
    );
    if (result.rejected.length > 0) {
      settings.logger?.warn({ operation, rejected: result.rejected.length }, 'records failed validation');
    }
    if (result.repaired.length > 0) {
      settings.logger?.warn(
        { operation, repaired: result.repaired.length },
        'records repaired to be storable',
      );
    }
    return result;
  }

  /** A list operation answered by query parameters: request rules first, then the call. */
  function listByQuery<S extends z.ZodType, Op extends QueryOperation & OperationId>(
    operation: Op,
    schema: S,
    values: Partial<Record<QueryMeaning<Op>, QueryValue>>,
    problems: readonly string[],
    call: CallOptions | undefined,
  ): Promise<ListResult<z.infer<S>>> {
    enforce(operation, problems);
    return list(operation, schema, { query: query(operation, values) }, call);
  }

  /** A list operation scoped to one supplier or account over an optional date range. */
  function scopedRangeList<
    Op extends QueryOperation & OperationId,
    S extends z.ZodType,
    F extends 'supplierId' | 'accountNumber',
  >(operation: Op, schema: S, field: F) {
    return async <
      Q extends Partial<Record<QueryMeaning<Op>, QueryValue>> &
        Partial<Record<F | 'beginDate' | 'endDate', string>>,
    >(
      q: Q,
      call?: CallOptions,
    ) =>
      listByQuery(
        operation,
        schema,
        { ...q },
        checkScopedRange(field, q[field], q.beginDate, q.endDate),
        call,
      );
  }

  /** A detail call: path parameters checked before anything is sent, the record validated. */
  async function detail<S extends z.ZodType>(
    operation: OperationId,
    schema: S,
    pathParams: Record<string, string>,
    call: CallOptions | undefined,
  ): Promise<DetailResult<z.infer<S>>> {
    enforce(operation, checkPathParams(pathParams));
    const answer = await send({ operation, pathParams, signal: call?.signal });
    const result = validateDetail(schema, answer.payload);
    if (result.rejected.length > 0) settings.logger?.warn({ operation }, 'record failed validation');
    if (result.repaired.length > 0) settings.logger?.warn({ operation }, 'record repaired to be storable');
    return result;
  }

  /** A write call: resolves to the strings the service answered. */
  async function write(operation: OperationId, request: RequestParts, call: CallOptions | undefined) {
    const answer = await send({ operation, ...request, signal: call?.signal });
    return readWritePayload(answer.payload);
  }

  return { query, list, listByQuery, scopedRangeList, detail, write };
}
