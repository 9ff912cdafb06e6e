import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/**
 * A counting proxy in its own process: arrivals are stamped on an event loop the test does not
 * block, so a test that lags its own loop (a busy loop on an interval) still counts requests where
 * the upstream receives them, to the millisecond. Same counting as countingProxy.ts.
 */
export interface CountingProxyProcess {
  url: string;
  /** When each API request (under /api/) arrived (epoch ms), in order. */
  arrivals: number[];
  close(): Promise<void>;
}

const PROXY_SCRIPT = `
const { createServer, request } = require('node:http');
const to = new URL(process.argv[1]);
const server = createServer((req, res) => {
  if (req.url.startsWith('/api/')) process.stdout.write('arrival ' + Date.now() + '\\n');
  const upstream = request(
    { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers },
    (answer) => { res.writeHead(answer.statusCode || 502, answer.headers); answer.pipe(res); },
  );
  upstream.on('error', () => res.destroy());
  req.pipe(upstream);
});
server.listen(0, '127.0.0.1', () => process.stdout.write('listening ' + server.address().port + '\\n'));
process.on('SIGTERM', () => { server.closeAllConnections(); server.close(() => process.exit(0)); });
`;

/** Starts the proxy process in front of `target` (e.g. the simulator's URL). */
export async function startCountingProxyProcess(target: string): Promise<CountingProxyProcess> {
  const child: ChildProcess = spawn(process.execPath, ['-e', PROXY_SCRIPT, target], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const arrivals: number[] = [];
  const lines = createInterface({ input: child.stdout! });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`counting proxy exited with ${code} before listening`)));
    lines.on('line', (line) => {
      const [word, value] = line.split(' ');
      if (word === 'arrival') arrivals.push(Number(value));
      else if (word === 'listening') resolve(Number(value));
    });
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url: `http://127.0.0.1:${port}`,
    arrivals,
    close: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
