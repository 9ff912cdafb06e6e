import { describe, expect, it } from 'vitest';
import { freshnessOf } from './freshness.ts';
import { type EndpointRow, type EventRow, type StreamRow, withoutQuery } from './readModel.ts';
import { endpointHealth, eventDelivery, statusPage, streamsSection } from './views.ts';

const AT = new Date('2026-11-20T12:00:00.000Z');
const ago = (seconds: number) => new Date(AT.getTime() - seconds * 1000);

function stream(overrides: Partial<StreamRow>): StreamRow {
  return {
    stream: 'shipments',
    scope: '1001',
    rule: { kind: 'target', seconds: 60 },
    lastSuccessAt: ago(30),
    lastError: null,
    lastErrorAt: null,
    lastRunStatus: 'succeeded',
    vanishWithheld: null,
    ...overrides,
  };
}

function endpoint(overrides: Partial<EndpointRow>): EndpointRow {
  return {
    id: 'ep_1',
    url: 'https://example.com/hook',
    enabled: true,
    disabledBy: null,
    disabledReason: null,
    failingSince: null,
    pausedUntil: null,
    pending: 0,
    oldestPendingAt: null,
    attempts24h: 10,
    successRate24h: 1,
    p95Ms24h: 120,
    lastSuccessAt: ago(60),
    ...overrides,
  };
}

function event(overrides: Partial<EventRow>): EventRow {
  return {
    id: 'evt_1',
    type: 'shipment.delivered',
    subject: 'shipment C1',
    stream: 'shipments',
    scope: '1001',
    occurredAt: ago(90),
    detectedAt: ago(40),
    suppressed: false,
    dispatchedAt: ago(39),
    delivered: 1,
    pending: 0,
    gaveUp: 0,
    ...overrides,
  };
}

const render = async (value: unknown) => String(await value);

describe('freshness of a stream and scope', () => {
  it('is fresh within its aim, behind past it, stale past three of it (when the alert fires)', () => {
    const target = { kind: 'target', seconds: 60 } as const;
    expect(freshnessOf(target, ago(60), AT).state).toBe('fresh');
    expect(freshnessOf(target, ago(61), AT).state).toBe('behind');
    expect(freshnessOf(target, ago(180), AT).state).toBe('behind');
    expect(freshnessOf(target, ago(181), AT)).toEqual({ state: 'stale', ageSeconds: 181, aimSeconds: 60 });
    expect(freshnessOf(target, null, AT).state).toBe('never');
    expect(freshnessOf({ kind: 'cadence', seconds: 3600 }, ago(3000), AT).state).toBe('fresh');
    expect(freshnessOf({ kind: 'on-demand' }, ago(9000), AT).state).toBe('on-demand');
  });
});

describe('status page views', () => {
  it('escapes what upstream, receivers and errors wrote: no markup of theirs reaches the page', async () => {
    const page = await render(
      statusPage({
        at: AT,
        streams: [stream({ lastError: '<script>alert(1)</script>', lastErrorAt: ago(20) })],
        streamsNotShown: 0,
        endpoints: [endpoint({ id: 'ep_"><b>x</b>' })],
        relay: { undispatched: 0, oldestDetectedAt: null },
        events: [event({ subject: 'shipment <img src=x onerror=alert(2)>' })],
      }),
    );
    expect(page).not.toContain('<script>alert(1)');
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).not.toContain('<img src=x');
    expect(page).toContain('&lt;img src=x onerror=alert(2)&gt;');
    expect(page).not.toContain('"><b>x</b>');
  });

  it('is made for a phone too: viewport meta, and labelled cells for the card layout', async () => {
    const page = await render(
      statusPage({
        at: AT,
        streams: [stream({})],
        streamsNotShown: 0,
        endpoints: [],
        relay: { undispatched: 0, oldestDetectedAt: null },
        events: [],
      }),
    );
    expect(page).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(page).toContain('data-label="Freshness"');
    expect(page).toContain('@media (max-width: 720px)');
    expect(page).not.toContain('<script');
  });

  it('lists streams worst first and counts each state; data age against the target or cadence', async () => {
    const section = await render(
      streamsSection({
        at: AT,
        streamsNotShown: 3,
        streams: [
          stream({ stream: 'returns', lastSuccessAt: ago(20) }),
          stream({ stream: 'shipments', lastSuccessAt: ago(400) }),
          stream({
            stream: 'inventory_activity',
            rule: { kind: 'cadence', seconds: 3600 },
            lastSuccessAt: ago(600),
          }),
          stream({ stream: 'invoices', lastSuccessAt: null }),
        ],
      }),
    );
    const order = ['invoices', 'shipments', 'inventory_activity', 'returns'].map((s) =>
      section.indexOf(`>${s}<`),
    );
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(section).toContain('1 never synced, 1 stale, 2 fresh');
    expect(section).toContain('7m of 60s target');
    expect(section).toContain('10m of 60m cadence');
    expect(section).toContain('3 more not shown');
  });

  it('names each endpoint’s health: healthy, failing for how long, paused, disabled and why', () => {
    expect(endpointHealth(endpoint({}), AT).text).toBe('healthy');
    expect(endpointHealth(endpoint({ failingSince: ago(1200) }), AT).text).toBe('failing for 20m');
    expect(endpointHealth(endpoint({ pausedUntil: new Date(AT.getTime() + 90_000) }), AT).text).toBe(
      'paused for 90s (Retry-After)',
    );
    expect(
      endpointHealth(
        endpoint({ enabled: false, disabledBy: 'failure', disabledReason: 'receiver answered 410 Gone' }),
        AT,
      ).text,
    ).toBe('disabled: receiver answered 410 Gone');
    expect(endpointHealth(endpoint({ enabled: false, disabledBy: 'operator' }), AT).text).toBe(
      'disabled by an operator',
    );
  });

  it('says where each event stands with its subscribers', () => {
    expect(eventDelivery(event({ suppressed: true, dispatchedAt: null }))).toBe('history: stored, not sent');
    expect(eventDelivery(event({ dispatchedAt: null }))).toBe('waiting for the relay');
    expect(eventDelivery(event({ delivered: 2, pending: 1 }))).toBe('2 delivered, 1 pending');
    expect(eventDelivery(event({ delivered: 0 }))).toBe('no endpoint wanted it');
  });

  it('never shows an endpoint URL’s query, which may carry a token', () => {
    expect(withoutQuery('https://hooks.example.com/in?token=s3cret')).toBe('https://hooks.example.com/in?…');
    expect(withoutQuery('https://hooks.example.com/in')).toBe('https://hooks.example.com/in');
  });
});
