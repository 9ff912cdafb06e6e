import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { shipmentUpdate } from './generate.ts';

const BASE = Date.UTC(2026, 2, 10, 0, 0, 0);

function minuteIndex(wire: string): number {
  const text = wire.length === 10 ? `${wire}T00:00` : wire;
  return Math.floor((Date.parse(`${text}:00Z`) - BASE) / 60_000);
}

/**
 * A minimal upstream serving Shipments/Updates over HTTP for a generated backfill of `records`
 * shipment updates, `perMinute` per minute: the bench's end-to-end path goes through the real
 * client, transport, validation and JSON, like a sync against the service.
 */
export async function startBenchUpstream(records: number, perMinute: number) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (!url.pathname.endsWith('/Shipments/Updates')) {
      res.writeHead(404).end();
      return;
    }
    const first = Math.max(0, minuteIndex(url.searchParams.get('beginDate') ?? '') * perMinute);
    const last = Math.min(records, (minuteIndex(url.searchParams.get('endDate') ?? '') + 1) * perMinute);
    const payload = [];
    for (let i = first; i < last; i++) payload.push(shipmentUpdate(i, perMinute));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ isSuccess: true, message: null, payload }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
