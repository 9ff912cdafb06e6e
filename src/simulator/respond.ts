import type { ServerResponse } from 'node:http';
import { stringifyJson } from './json.ts';
import { LazyRows } from './routes/context.ts';

/** Answers above this many rows are streamed in chunks instead of built as one string. */
const STREAM_THRESHOLD = 500;
const CHUNK_ROWS = 256;

/** Writes a JSON body in one piece. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = stringifyJson(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** The message of a 429, as the real service words it. */
export const TOO_MANY_REQUESTS = 'Too many requests';

/** HTTP 429 as the real service answers a throttled call. */
export function sendTooManyRequests(res: ServerResponse, retryAfterSeconds: number): void {
  sendJson(
    res,
    429,
    { isSuccess: false, message: TOO_MANY_REQUESTS, payload: null },
    { 'retry-after': String(retryAfterSeconds) },
  );
}

/** The envelope prefix; the payload follows. Same bytes as JSON.stringify of the whole envelope. */
function prefix(isSuccess: boolean, message: string | null): string {
  return `{"isSuccess":${isSuccess},"message":${JSON.stringify(message)},"payload":`;
}

/** Rows of a payload, whether an array or generated on demand. */
export function rowsOf(payload: unknown): { length: number; at: (i: number) => unknown } | undefined {
  if (payload instanceof LazyRows) return payload;
  if (Array.isArray(payload)) return { length: payload.length, at: (i) => payload[i] };
  return undefined;
}

/** Materialises a payload (LazyRows become an array). */
export function materialise(payload: unknown): unknown {
  const rows = payload instanceof LazyRows ? payload : undefined;
  return rows ? Array.from({ length: rows.length }, (_, i) => rows.at(i)) : payload;
}

/**
 * Writes the envelope. Large lists are streamed chunk by chunk with backpressure, so serving a
 * million records never builds one giant string and never outruns a slow reader.
 */
export async function sendEnvelope(
  res: ServerResponse,
  status: number,
  isSuccess: boolean,
  message: string | null,
  payload: unknown,
): Promise<void> {
  const rows = rowsOf(payload);
  if (!rows || rows.length <= STREAM_THRESHOLD) {
    sendJson(res, status, { isSuccess, message, payload: materialise(payload) ?? null });
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.write(`${prefix(isSuccess, message)}[`);
  for (let start = 0; start < rows.length; start += CHUNK_ROWS) {
    const end = Math.min(rows.length, start + CHUNK_ROWS);
    const parts: string[] = [];
    for (let i = start; i < end; i++) parts.push(stringifyJson(rows.at(i)));
    const chunk = (start === 0 ? '' : ',') + parts.join(',');
    if (res.destroyed) return;
    if (!res.write(chunk)) await drained(res);
  }
  res.end(']}');
}

/** Resolves when the socket can take more, or is gone; leaves no listeners behind. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
