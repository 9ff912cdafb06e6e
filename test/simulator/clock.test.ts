import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/simulator/index.ts';

describe('real clock', () => {
  it('follows real time and refuses to be advanced', async () => {
    const s = await startSimulator({ seed: 1, clock: 'real', volume: { historyDays: 1 } });
    try {
      const first = (await (await fetch(`${s.url}/_sim/world`)).json()) as { now: string; clock: string };
      expect(first.clock).toBe('real');
      const refused = await fetch(`${s.url}/_sim/clock`, {
        method: 'POST',
        body: JSON.stringify({ advanceMinutes: 5 }),
      });
      expect(refused.status).toBe(400);
      const deadline = Date.now() + 5000;
      let later = first.now;
      while (later === first.now && Date.now() < deadline) {
        later = ((await (await fetch(`${s.url}/_sim/world`)).json()) as { now: string }).now;
      }
      expect(Date.parse(later)).toBeGreaterThan(Date.parse(first.now));
    } finally {
      await s.close();
    }
  });
});

describe('control endpoints', () => {
  const external = Object.values(networkInterfaces())
    .flat()
    .find((i) => i?.family === 'IPv4' && !i.internal)?.address;

  it.runIf(external !== undefined)('refuse clients that are not on the loopback interface', async () => {
    const s = await startSimulator({ seed: 1, clock: 'manual', host: '0.0.0.0', volume: { historyDays: 1 } });
    try {
      const port = new URL(s.url).port;
      expect((await fetch(`http://${external}:${port}/_sim/world`)).status).toBe(403);
      expect((await fetch(`http://127.0.0.1:${port}/_sim/world`)).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});
