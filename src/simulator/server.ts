import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { handleControl } from './control.ts';
import type { SimulatorCore } from './core.ts';
import { CORRUPTIONS, corruptRecord, type FaultDecision } from './faults.ts';
import { stringifyJson } from './json.ts';
import { materialise, rowsOf, sendEnvelope, sendJson, sendTooManyRequests } from './respond.ts';
import { type Answer, badRequest, RequestRuleError, type SimRequest } from './routes/context.ts';
import { matchRoute } from './routes/table.ts';

const API_PREFIX = '/api/v1/';
const MAX_BODY = 1_000_000;

/** The HTTP face of the simulator: /api/v1 (bearer auth, faults), /oauth/token, /_sim (loopback). */
export function createSimServer(core: SimulatorCore): { server: Server; closeAll: () => void } {
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    handle(core, req, res).catch((error: unknown) => {
      if (!res.headersSent)
        sendJson(res, 500, {
          isSuccess: false,
          message: `simulator error: ${(error as Error).message}`,
          payload: null,
        });
      else res.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return {
    server,
    closeAll: () => {
      for (const s of sockets) s.destroy();
    },
  };
}

async function handle(core: SimulatorCore, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://sim');
  const raw = await readBody(req);
  if (url.pathname.startsWith('/_sim/')) return handleControl(core, req, res, url, raw);
  if (url.pathname === '/oauth/token' && req.method === 'POST') return token(core, req, res, raw);
  if (!url.pathname.startsWith(API_PREFIX)) {
    return sendJson(res, 404, {
      isSuccess: false,
      message: `no such path ${url.pathname}; the API lives under /api/v1/`,
      payload: null,
    });
  }
  const match = matchRoute(req.method ?? 'GET', url.pathname.slice(API_PREFIX.length));
  if (match === undefined)
    return sendJson(res, 404, {
      isSuccess: false,
      message: `no operation at ${url.pathname}`,
      payload: null,
    });
  if (match === 'method')
    return sendJson(res, 405, {
      isSuccess: false,
      message: `${req.method} is not allowed on ${url.pathname}`,
      payload: null,
    });
  if (!core.tokens.authorized(req.headers.authorization)) {
    return sendJson(
      res,
      401,
      { isSuccess: false, message: 'missing or invalid bearer token', payload: null },
      { 'www-authenticate': 'Bearer' },
    );
  }
  const op = match.route.op;
  const fault = core.faults.decide(op);
  // Drawn on every call, from its own stream, so the fault sequence is the same with the scenario.
  const throttled = core.poison?.throttled() ?? false;
  if (await shortCircuit(core, fault, res)) return;
  if (throttled) return sendTooManyRequests(res, core.poison?.retryAfterSeconds ?? 1);
  const now = core.catchUp();
  let body: unknown;
  try {
    body = raw.length === 0 ? undefined : JSON.parse(raw);
  } catch {
    return sendAnswer(core, res, badRequest('the request body is not valid JSON'), fault);
  }
  const request: SimRequest = { op, params: match.params, query: url.searchParams, body };
  const ctx = { world: core.world, table: core.table, volume: core.volume, now };
  let answer: Answer;
  try {
    answer = match.route.handler(ctx, request);
  } catch (error) {
    if (!(error instanceof RequestRuleError)) throw error;
    answer = badRequest(error.message);
  }
  if (core.poison) answer = core.poison.answer(ctx, request, answer);
  return sendAnswer(core, res, applyRowCap(core, answer), fault);
}

/** Faults that replace the answer entirely; true when the request is done (or never will be). */
async function shortCircuit(
  core: SimulatorCore,
  fault: FaultDecision,
  res: ServerResponse,
): Promise<boolean> {
  const o = core.faults.options;
  switch (fault.kind) {
    case 'http5xx': {
      const status = fault.rng.pick([500, 502, 503]);
      sendJson(res, status, { isSuccess: false, message: 'Internal server error (injected)', payload: null });
      return true;
    }
    case 'rateLimit':
      sendTooManyRequests(res, o.retryAfterSeconds ?? 1);
      return true;
    case 'isSuccessFalse':
      sendJson(res, 200, {
        isSuccess: false,
        message: 'The service is temporarily unavailable, please try again',
        payload: null,
      });
      return true;
    case 'timeout':
      // Never answer: the client's timeout has to fire. close() destroys the socket.
      return true;
    case 'drop':
      res.socket?.destroy();
      return true;
    case 'slow':
      await new Promise((resolve) => setTimeout(resolve, o.slowMs ?? 1500));
      return false;
    default:
      return false;
  }
}

function applyRowCap(core: SimulatorCore, answer: Answer): Answer {
  const cap = core.rowCap;
  const rows = rowsOf(answer.payload);
  if (cap === undefined || !answer.isSuccess || !rows || rows.length <= cap) return answer;
  if (core.rowCapMode === 'truncate') {
    return { ...answer, payload: Array.from({ length: cap }, (_, i) => rows.at(i)) };
  }
  return {
    status: 413,
    isSuccess: false,
    message: 'Request too large: narrow the date range',
    payload: null,
  };
}

async function sendAnswer(
  core: SimulatorCore,
  res: ServerResponse,
  answer: Answer,
  fault: FaultDecision,
): Promise<void> {
  if (fault.kind === 'malformedJson') {
    res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8' });
    res.end('{"isSuccess":true,"message":null,"payload":[{"oops": ,]}');
    return;
  }
  if (fault.kind === 'truncated') {
    const text = stringifyJson({
      isSuccess: answer.isSuccess,
      message: answer.message,
      payload: materialise(answer.payload) ?? null,
    });
    res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(text.slice(0, Math.max(1, Math.floor(text.length / 2))));
    return;
  }
  let payload = answer.payload;
  if (fault.kind === 'badRecords' && answer.isSuccess) {
    // Records are built for each answer, so breaking one in place reaches nothing else (and a
    // deeply nested poison record could not be cloned anyway).
    payload = materialise(payload);
    const rows = Array.isArray(payload) ? payload : [payload];
    if (rows.length > 0)
      corruptRecord(
        rows[fault.rng.int(0, rows.length - 1)],
        fault.rng,
        core.faults.options.corruptions ?? CORRUPTIONS,
      );
  }
  await sendEnvelope(res, answer.status, answer.isSuccess, answer.message, payload);
}

/** POST /oauth/token: client credentials as a form (or JSON) -> {access_token, expires_in}. */
function token(core: SimulatorCore, req: IncomingMessage, res: ServerResponse, raw: string): void {
  let fields: Record<string, string | undefined>;
  if ((req.headers['content-type'] ?? '').includes('json')) {
    try {
      fields = JSON.parse(raw) as Record<string, string>;
    } catch {
      fields = {};
    }
  } else {
    fields = Object.fromEntries(new URLSearchParams(raw));
  }
  // Basic auth is the other standard way of sending client credentials.
  const basic = /^Basic\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  if (basic) {
    const [id, secret] = Buffer.from(basic[1] as string, 'base64')
      .toString()
      .split(':');
    fields.client_id ??= decodeURIComponent(id ?? '');
    fields.client_secret ??= decodeURIComponent(secret ?? '');
  }
  const issued = core.tokens.issue(fields.grant_type, fields.client_id, fields.client_secret);
  if (!issued) {
    sendJson(res, 401, { error: 'invalid_client', error_description: 'unknown client or wrong secret' });
    return;
  }
  sendJson(res, 200, issued, { 'cache-control': 'no-store' });
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new Error('request body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
