import { describe, expect, it } from 'vitest';
import { shipmentUpdate } from '../../bench/generate.ts';
import type { ShipmentUpdate } from '../api/records/index.ts';
import { shipmentsStream } from '../streams/shipments.ts';
import { shapeOf } from './columns.ts';
import { SLICE_RECORDS } from './eventLoop.ts';
import { buildIncoming, buildIncomingInSlices } from './incoming.ts';

const entity = shipmentsStream.entity;
const shape = shapeOf(entity.table, entity.key);
const ctx = {
  scope: { kind: 'account' as const, id: 'ACC1' },
  timezone: 'America/Los_Angeles',
  now: new Date(),
};

/** A window of several slices with a container repeated across slices and an unparseable date. */
function windowOfRecords(): ShipmentUpdate[] {
  const records = Array.from({ length: SLICE_RECORDS * 3 + 7 }, (_, i) => shipmentUpdate(i, 50));
  const repeated = shipmentUpdate(3, 50);
  repeated.header.statusCode = 'DELIVERED_AGAIN';
  records[SLICE_RECORDS * 2 + 1] = repeated;
  const broken = shipmentUpdate(10_000, 50);
  broken.header.shipDate = 'not a date';
  records[SLICE_RECORDS + 4] = broken;
  return records;
}

describe('buildIncomingInSlices', () => {
  it('answers what buildIncoming answers for the whole window: last repeat wins, rejected at their index', async () => {
    const records = windowOfRecords();
    const whole = buildIncoming(records, entity, shape, ctx);
    const sliced = await buildIncomingInSlices(records, entity, shape, ctx);
    expect(sliced.incoming.map((i) => i.key)).toEqual(whole.incoming.map((i) => i.key));
    expect(sliced.incoming.map((i) => i.row.status_code)).toEqual(
      whole.incoming.map((i) => i.row.status_code),
    );
    expect(sliced.rejected.map((r) => [r.index, r.reason])).toEqual(
      whole.rejected.map((r) => [r.index, r.reason]),
    );
    expect(sliced.rejected.map((r) => r.index)).toEqual([SLICE_RECORDS + 4]);
    const container3 = sliced.incoming.find((i) => i.row.container_id === 'BC00000003');
    expect(container3?.row.status_code).toBe('DELIVERED_AGAIN');
  });

  it('lets pending I/O run between slices (a commit beside it keeps being fed)', async () => {
    const records = windowOfRecords();
    let ranDuringBuild = false;
    const building = buildIncomingInSlices(records, entity, shape, ctx);
    setImmediate(() => {
      ranDuringBuild = true;
    });
    // The callback queued after the build started runs before the build ends only if the build yields.
    await building;
    expect(ranDuringBuild).toBe(true);
  });
});
