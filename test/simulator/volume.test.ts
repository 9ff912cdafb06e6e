import { describe, expect, it } from 'vitest';
import { type ShipmentUpdate, shipmentUpdateSchema } from '../../src/api/records/index.ts';
import { VolumeShipments } from '../../src/simulator/volume.ts';
import { Zone } from '../../src/simulator/zone.ts';
import { call, START, sim } from './helpers.ts';

describe('volume', () => {
  it('serves generated shipment updates by window, streamed, valid and complete', async () => {
    const s = await sim({ volume: { shipments: 20_000, historyDays: 5 } });
    try {
      const zone = new Zone('America/Los_Angeles');
      const range = { beginDate: '2026-10-30T06:00', endDate: '2026-11-01T01:59' };
      const r = await call<ShipmentUpdate[]>(s, 'GET', 'Shipments/Updates', {
        accountNumber: 'ACC200',
        ...range,
      });
      const volume = r.body.payload.filter((u) => u.header.containerId.startsWith('V'));
      const world = (await (await fetch(`${s.url}/_sim/world`)).json()) as {
        counts: { volumeShipments: number };
      };
      expect(world.counts.volumeShipments).toBe(20_000);
      // Independent count: every volume index of ACC200 (odd) whose update minute is in the window.
      const timeline = new VolumeShipments(
        42,
        20_000,
        ['ACC100', 'ACC200'],
        {},
        START.getTime() - 5 * 86_400_000,
        START.getTime(),
      );
      let expected = 0;
      for (let i = 1; i < timeline.count; i += 2) {
        const wall = zone.wallMinute(timeline.updatedAt[i]!);
        if (wall >= range.beginDate && wall <= range.endDate) expected++;
      }
      expect(expected).toBeGreaterThan(1000);
      expect(volume.length).toBe(expected);
      for (const u of volume.filter((_, i) => i % 50 === 0))
        expect(shipmentUpdateSchema.safeParse(u).success).toBe(true);
      for (const u of volume) {
        const index = Number(u.header.containerId.slice(1));
        expect(index % 2).toBe(1);
      }
      const ids = new Set(volume.map((u) => u.header.containerId));
      expect(ids.size).toBe(volume.length);
      // One container by id, and its window agrees with its last event.
      const one = volume[10]!;
      const byId = await call<ShipmentUpdate[]>(s, 'GET', 'Shipments/Updates', {
        accountNumber: 'ACC200',
        containerId: one.header.containerId,
      });
      expect(byId.body.payload).toEqual([one]);
      const lastEvent = Date.parse(one.events!.at(-1)!.eventTime!);
      expect(zone.wallMinute(lastEvent) <= range.endDate).toBe(true);
    } finally {
      await s.close();
    }
  });

  it.runIf(process.env.SLOW_TESTS === '1')(
    'generates 1,000,000 shipment updates and serves them (its time is printed: speed is for benchmarks)',
    async () => {
      const started = Date.now();
      const s = await sim({ volume: { shipments: 1_000_000, historyDays: 30 } });
      try {
        const generationMs = Date.now() - started;
        console.log(`1,000,000 shipment updates generated in ${generationMs} ms`);
        const t = Date.now();
        const r = await call<ShipmentUpdate[]>(s, 'GET', 'Shipments/Updates', {
          accountNumber: 'ACC100',
          beginDate: '2026-10-05',
          endDate: '2026-10-11',
        });
        console.log(`${r.body.payload.length} rows (${r.text.length} bytes) served in ${Date.now() - t} ms`);
        expect(r.body.payload.length).toBeGreaterThan(100_000);
      } finally {
        await s.close();
      }
    },
    300_000,
  );
});
