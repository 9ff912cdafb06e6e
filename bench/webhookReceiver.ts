/**
 * The receiver of `npm run bench:webhooks`, in a process of its own so the worker's CPU is the
 * worker's: answers 204 at once on every path but `/hang`, which it answers only after 15 s.
 * Prints its port on stdout, then serves until its stdin closes (the bench ended, however it ended).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const HANG_MS = 15_000;

const server = createServer((req, res) => {
  req.resume();
  if (req.url === '/hang') {
    const timer = setTimeout(() => res.writeHead(200).end(), HANG_MS);
    res.on('close', () => clearTimeout(timer));
    return;
  }
  req.on('end', () => res.writeHead(204).end());
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${(server.address() as AddressInfo).port}\n`);
});
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
