/**
 * The scale benchmark's upstream, in a process of its own (as a real upstream is): a simulator with a
 * manual clock that counts every API request it answers, by operation. The parent (simulatorChild.ts)
 * drives it over IPC: advance the clock, read the counts, close.
 */
import type { AddressInfo } from 'node:net';
import { SimulatorCore, type SimulatorOptions } from '../../src/simulator/core.ts';
import { matchRoute } from '../../src/simulator/routes/table.ts';
import { createSimServer } from '../../src/simulator/server.ts';
import type { SimReply, SimRequest, SimulatorReady } from './simulatorProtocol.ts';

const API_PREFIX = '/api/v1/';
const options = JSON.parse(process.argv[2] ?? '{}') as SimulatorOptions & { start: string };

const built = performance.now();
const core = new SimulatorCore({ ...options, start: new Date(options.start), clock: 'manual' });
const buildMs = Math.round(performance.now() - built);
const { server, closeAll } = createSimServer(core);

// Counted as the upstream would meter them: every request to the API, whatever its answer (a 413
// that makes the worker split a window costs a call too), by operation; anything else is not a call.
const calls: Record<string, number> = {};
const failures: Record<string, number> = {};
server.prependListener('request', (req, res) => {
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  if (!path.startsWith(API_PREFIX)) return;
  const match = matchRoute(req.method ?? 'GET', path.slice(API_PREFIX.length));
  const op = typeof match === 'object' ? match.route.op : 'unknown';
  calls[op] = (calls[op] ?? 0) + 1;
  res.once('finish', () => {
    if (res.statusCode >= 300) failures[op] = (failures[op] ?? 0) + 1;
  });
});

await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address() as AddressInfo;
const ready: SimulatorReady = {
  kind: 'ready',
  url: `http://127.0.0.1:${port}`,
  now: core.clock.now(),
  suppliers: core.world.suppliers.map((s) => s.id),
  accounts: core.world.accounts.map((a) => a.number),
  buildMs,
};
process.send?.(ready);

process.on('message', (message: SimRequest) => {
  let reply: SimReply;
  switch (message.kind) {
    case 'advance': {
      const started = performance.now();
      core.advance(message.minutes);
      reply = { kind: 'advanced', id: message.id, now: core.clock.now(), ms: performance.now() - started };
      break;
    }
    case 'counts':
      reply = { kind: 'counts', id: message.id, calls: { ...calls }, failures: { ...failures } };
      break;
    case 'close':
      closeAll();
      server.close(() => process.exit(0));
      return;
  }
  process.send?.(reply);
});
// The benchmark died: do not linger.
process.on('disconnect', () => process.exit(0));
