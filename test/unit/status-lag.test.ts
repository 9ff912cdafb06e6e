import { describe, expect, it } from 'vitest';
import { lag } from '../../src/cli/status/streamStatus.ts';
import { DAY_WINDOW_STREAMS, STREAM_DEFAULTS } from '../../src/config/streamDefaults.ts';
import { allStreams } from '../../src/streams/index.ts';

const LA = 'America/Los_Angeles';
const day = { dayWindows: true, timezone: LA };
const minute = { dayWindows: false, timezone: LA };

describe('status lag', () => {
  it('a day-window stream that just succeeded is as fresh as that run, not "behind" since local midnight', () => {
    // The cursor of a day-window stream is the start of the last day read: 2026-11-03 00:00 PST.
    const midnight = new Date('2026-11-03T08:00:00Z');
    const ranAt = new Date('2026-11-03T22:58:00Z'); // 14:58 PST
    const now = new Date('2026-11-03T23:00:00Z');
    expect(lag(midnight, ranAt, now, day)).toEqual({ lagSeconds: 120, lagFrom: 'coverage' });
  });

  it('a day-window stream whose cursor is days back covered up to the end of that day only', () => {
    const cursor = new Date('2026-10-31T07:00:00Z'); // 2026-10-31 00:00 PDT
    const now = new Date('2026-11-03T23:00:00Z');
    // That day ends at 2026-11-01 00:00 PDT (07:00 UTC), whatever the last success.
    const expected = (now.getTime() - Date.parse('2026-11-01T07:00:00Z')) / 1000;
    expect(lag(cursor, new Date('2026-11-03T22:55:00Z'), now, day)).toEqual({
      lagSeconds: expected,
      lagFrom: 'coverage',
    });
  });

  it('the day that ends with the autumn DST change is 25 hours long', () => {
    // 2026-11-01 00:00 PDT: that day ends 25 h later, at 2026-11-02 00:00 PST (08:00Z), not at 07:00Z.
    const cursor = new Date('2026-11-01T07:00:00Z');
    const ranAt = new Date('2026-11-02T07:30:00Z'); // 23:30 PST, still 2026-11-01
    expect(lag(cursor, ranAt, new Date('2026-11-02T07:40:00Z'), day)).toEqual({
      lagSeconds: 600,
      lagFrom: 'coverage',
    });
  });

  it('a minute-window stream lags behind its cursor; a stream without one behind its last success', () => {
    const now = new Date('2026-11-03T23:00:00Z');
    expect(lag(new Date('2026-11-03T20:00:00Z'), new Date('2026-11-03T22:59:00Z'), now, minute)).toEqual({
      lagSeconds: 10_800,
      lagFrom: 'cursor',
    });
    expect(lag(null, new Date('2026-11-03T22:00:00Z'), now, day)).toEqual({
      lagSeconds: 3600,
      lagFrom: 'lastSuccess',
    });
    expect(lag(null, null, now, minute)).toEqual({ lagSeconds: null, lagFrom: null });
  });

  it('DAY_WINDOW_STREAMS are exactly the streams that plan day windows', () => {
    const now = new Date('2026-11-03T23:00:00Z');
    const planned = allStreams().filter((stream) =>
      stream
        .planWindows({
          cursor: { position: new Date('2026-11-01T07:00:00Z'), lastSuccessAt: now },
          now,
          settings: STREAM_DEFAULTS[stream.name],
          timezone: LA,
          start: new Date('2026-10-01T07:00:00Z'),
        })
        .some((w) => w.kind === 'day'),
    );
    expect(planned.map((s) => s.name).sort()).toEqual([...DAY_WINDOW_STREAMS].sort());
  });
});
