import { describe, expect, it } from 'vitest';
import { shipments } from '../../src/db/schema/shipments.ts';
import { invoiceRule } from '../../src/events/rules/invoice.ts';
import { testContext } from '../../src/events/testContext.ts';
import { upstreamInstant } from '../../src/events/upstreamTime.ts';
import { recordRow } from '../../src/sync/rows.ts';
import type { RowContext } from '../../src/sync/types.ts';

/**
 * FULFILLMENT_AMBIGUOUS_TIME reaches what the engine stores (RowContext) and what events say
 * happened when (DeriveContext), minute by minute through the repeated hour of 2026-11-01.
 */

const LA = 'America/Los_Angeles';
const scope = { kind: 'account' as const, id: 'ACC1' };
const wall = (m: number) => `2026-11-01T01:${String(m).padStart(2, '0')}:00`;
const instant = (m: number, which: 'earlier' | 'later') =>
  new Date(Date.UTC(2026, 10, 1, which === 'earlier' ? 8 : 9, m)).toISOString();

describe('the repeated hour in stored rows and in events', () => {
  it.each([
    ['earlier', 'earlier'],
    ['later', 'later'],
    [undefined, 'later'],
  ] as const)('ambiguousTime %s: rows and events read each minute as the %s occurrence', (setting, which) => {
    const ctx: RowContext = {
      scope,
      timezone: LA,
      now: new Date(),
      ...(setting ? { ambiguousTime: setting } : {}),
    };
    const events = testContext({ timezone: LA, ...(setting ? { ambiguousTime: setting } : {}) });
    for (let m = 0; m < 60; m++) {
      const row = recordRow(shipments, { containerId: 'C1', shipDate: wall(m) }, ctx);
      expect((row.ship_date as Date).toISOString(), wall(m)).toBe(instant(m, which));
      expect(upstreamInstant(wall(m), events)).toBe(instant(m, which));
      const [created] = invoiceRule(null, { invoiceNumber: 'I1', invoiceDate: wall(m) }, events);
      expect(created?.occurredAt).toBe(instant(m, which));
    }
  });

  it('a time with an offset is that instant whatever the setting', () => {
    for (const ambiguousTime of ['earlier', 'later'] as const) {
      const row = recordRow(
        shipments,
        { containerId: 'C1', shipDate: '2026-11-01T01:30:00-07:00' },
        { scope, timezone: LA, now: new Date(), ambiguousTime },
      );
      expect((row.ship_date as Date).toISOString()).toBe('2026-11-01T08:30:00.000Z');
      expect(upstreamInstant('2026-11-01T01:30:00-08:00', { timezone: LA, ambiguousTime })).toBe(
        '2026-11-01T09:30:00.000Z',
      );
    }
  });
});
