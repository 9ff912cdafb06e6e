import { describe, expect, it } from 'vitest';
import {
  burstWhenAllDue,
  busiestWindow,
  cadenceFit,
  configuredRpsFor,
  cyclePhases,
  sentRps,
} from '../../bench/scale/figures.ts';
import { STREAM_DEFAULTS } from '../../src/config/streamDefaults.ts';

describe('scale benchmark arithmetic', () => {
  it('cycles the scheduled streams by cadence, shortest first, leaving on-demand orders out', () => {
    expect(cyclePhases(STREAM_DEFAULTS)).toEqual([
      { cadenceMinutes: 5, streams: ['shipments'] },
      { cadenceMinutes: 15, streams: ['inventory', 'transfers_in', 'returns'] },
      { cadenceMinutes: 60, streams: ['inventory_activity', 'transfers_out'] },
      { cadenceMinutes: 1440, streams: ['products', 'invoices'] },
    ]);
  });

  it('counts the limiter spacing: 10 configured sends 9.52 a second, and back', () => {
    expect(sentRps(10)).toBeCloseTo(9.524, 3);
    expect(configuredRpsFor(sentRps(10) * 60, 60)).toBe(10);
  });

  it('says whether a cycle fits its cadence and which configured rate it needs', () => {
    expect(cadenceFit('shipments', 5, 100, 10.6)).toMatchObject({ fits: true, neededRps: 0.35 });
    const late = cadenceFit('shipments', 5, 4000, 420);
    expect(late).toMatchObject({ fits: false, cadenceShare: 1.4, neededRps: 14 });
  });

  it('adds every cycle and its order details for the moment all cadences coincide', () => {
    const burst = burstWhenAllDue(
      [
        { cadenceMinutes: 5, calls: 100, orderDetailCalls: 46 },
        { cadenceMinutes: 1440, calls: 2200 },
      ],
      10,
    );
    expect(burst).toEqual({
      calls: 2346,
      seconds: 246.3,
      shortestCadenceSeconds: 300,
      overrunsShortestCadence: false,
    });
  });

  it('with each scheduler at its phase, the busiest five minutes hold one shipments cycle and a few daily runs', () => {
    const accounts = Array.from({ length: 100 }, (_, i) => `ACC${i}`);
    const suppliers = Array.from({ length: 100 }, (_, i) => `SUP${i}`);
    const cycles = [
      { stream: 'shipments' as const, scopes: accounts, cadenceMinutes: 5, calls: 100, orderDetailCalls: 46 },
      { stream: 'products' as const, scopes: suppliers, cadenceMinutes: 1440, calls: 2200 },
    ];
    const busiest = busiestWindow(cycles, 10);
    // Every five minutes hold each shipments scheduler once (146 calls with order details); all
    // 100 daily runs at once would add 2,200, the spread phases add a few scopes' 22 calls each.
    expect(busiest.calls).toBeGreaterThanOrEqual(146 + 22);
    expect(busiest.calls).toBeLessThanOrEqual(146 + 22 * 6);
    expect(busiest).toMatchObject({ windowSeconds: 300, overrunsWindow: false });
    expect(burstWhenAllDue(cycles, 10).calls).toBe(2346);
  });
});
