import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SimulatorCore } from './core.ts';
import type { FaultOptions } from './faults.ts';
import { sendJson } from './respond.ts';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * /_sim/ control (docs/upstream-api.md, what the simulator adds): no auth, loopback clients only.
 * GET world, POST clock {advanceMinutes}, GET truth, POST faults (FaultOptions), GET faults,
 * GET poison (what the poison scenario has poisoned; 404 without the scenario).
 */
export function handleControl(
  core: SimulatorCore,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  raw: string,
): void {
  if (!LOOPBACK.has(req.socket.remoteAddress ?? '')) {
    sendJson(res, 403, { error: 'the /_sim/ control endpoints only answer loopback clients' });
    return;
  }
  const route = `${req.method} ${url.pathname}`;
  let body: Record<string, unknown> = {};
  try {
    body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
  } catch {
    sendJson(res, 400, { error: 'body is not valid JSON' });
    return;
  }
  try {
    switch (route) {
      case 'GET /_sim/world':
        sendJson(res, 200, core.worldSummary());
        return;
      case 'POST /_sim/clock': {
        const minutes = Number(body.advanceMinutes);
        if (!Number.isFinite(minutes) || minutes < 0) {
          sendJson(res, 400, { error: 'send {"advanceMinutes": N} with N >= 0' });
          return;
        }
        core.advance(minutes);
        sendJson(res, 200, { now: new Date(core.clock.now()).toISOString() });
        return;
      }
      case 'GET /_sim/truth':
        sendJson(res, 200, core.truth());
        return;
      case 'POST /_sim/faults':
        core.faults.configure(body as FaultOptions);
        sendJson(res, 200, { faults: core.faults.options });
        return;
      case 'GET /_sim/faults':
        sendJson(res, 200, { faults: core.faults.options, injected: core.faults.tally });
        return;
      case 'GET /_sim/poison': {
        const report = core.poisonReport();
        if (report) sendJson(res, 200, report);
        else
          sendJson(res, 404, { error: 'this simulator runs no scenario; start it with --scenario poison' });
        return;
      }
      default:
        sendJson(res, 404, { error: `no control route ${route}; see src/simulator/README.md` });
        return;
    }
  } catch (error) {
    sendJson(res, 400, { error: (error as Error).message });
    return;
  }
}
