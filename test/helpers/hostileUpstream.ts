import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { forwardTo } from './countingProxy.ts';

/** How a hostile answer misbehaves. */
export type HostileKind =
  /** A valid-looking JSON envelope of `bytes` bytes, streamed (never held in memory whole). */
  | { kind: 'huge'; bytes: number }
  /** A gzip body of a few MB that inflates to `bytes` bytes of JSON whitespace. */
  | { kind: 'gzip-bomb'; bytes: number }
  /** A 200 whose body arrives at `bytesPerSecond`, for as long as the client listens. */
  | { kind: 'trickle'; bytesPerSecond: number };

/** A proxy in front of the simulator that answers the requests `isTarget` picks with a hostile body. */
export interface HostileUpstream {
  url: string;
  /** The query strings of the hostile answers started so far. */
  hostileCalls: string[];
  close(): Promise<void>;
}

const MEMBER_BYTES = 64 * 1024 * 1024;

/** Starts the proxy; every other request passes through to `target` untouched. */
export async function startHostileUpstream(
  target: string,
  isTarget: (url: URL) => boolean,
  hostile: HostileKind,
): Promise<HostileUpstream> {
  const to = new URL(target);
  // One gzip member of 64 MiB of spaces is ~64 KB; members repeated back to back inflate as one body.
  const member = hostile.kind === 'gzip-bomb' ? gzipSync(Buffer.alloc(MEMBER_BYTES, 0x20)) : undefined;
  const hostileCalls: string[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (!isTarget(url)) return forwardTo(to, req, res);
    hostileCalls.push(url.search);
    req.resume();
    if (hostile.kind === 'huge') return void streamHuge(res, hostile.bytes);
    if (hostile.kind === 'gzip-bomb') return void streamBomb(res, member as Buffer, hostile.bytes);
    return void trickle(res, hostile.bytesPerSecond);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hostileCalls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** True once the response can take more, false if the client left first. */
function drained(res: ServerResponse): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const onDrain = () => finish(true);
    const onClose = () => finish(false);
    const finish = (value: boolean) => {
      res.off('drain', onDrain);
      res.off('close', onClose);
      resolve(value);
    };
    res.on('drain', onDrain);
    res.on('close', onClose);
  });
}

/** Writes `chunk` until at least `total` bytes went out or the client left, respecting backpressure. */
async function writeRepeated(res: ServerResponse, chunk: Buffer, total: number): Promise<boolean> {
  let sent = 0;
  while (sent < total && !res.destroyed) {
    // Whole chunks only, so the body stays valid JSON; it may pass `total` by less than a chunk.
    sent += chunk.length;
    if (!res.write(chunk) && !(await drained(res))) return false;
  }
  return !res.destroyed;
}

async function streamHuge(res: ServerResponse, bytes: number): Promise<void> {
  res.writeHead(200, { 'content-type': 'application/json' });
  const head = Buffer.from('{"isSuccess":true,"message":null,"payload":[');
  const record = Buffer.from(
    `${JSON.stringify({ containerId: 'C1', padding: 'x'.repeat(300) })},`.repeat(200),
  );
  res.write(head);
  if (await writeRepeated(res, record, bytes)) res.end('{}]}');
}

async function streamBomb(res: ServerResponse, member: Buffer, bytes: number): Promise<void> {
  res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
  const members = Math.ceil(bytes / MEMBER_BYTES);
  for (let i = 0; i < members && !res.destroyed; i += 1) {
    if (!res.write(member) && !(await drained(res))) return;
  }
  if (!res.destroyed) res.end();
}

function trickle(res: ServerResponse, bytesPerSecond: number): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  const body = Buffer.from(`{"isSuccess":true,"message":null,"payload":[${' '.repeat(1_000_000)}]}`);
  let at = 0;
  const timer = setInterval(() => {
    if (res.destroyed || at >= body.length) {
      clearInterval(timer);
      return;
    }
    res.write(body.subarray(at, at + bytesPerSecond));
    at += bytesPerSecond;
  }, 1000);
  res.on('close', () => clearInterval(timer));
}
