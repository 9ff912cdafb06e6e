import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import puppeteer, { type Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { writeEvents } from '../../src/events/outbox.ts';
import { addEndpoint } from '../../src/webhooks/endpoints/endpoints.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { cleanupRedisPrefix, testRedisPrefix } from '../helpers/redis.ts';
import { waitFor } from '../helpers/waitFor.ts';
import { LOCAL_RECEIVERS, startReceiver, testEvent } from '../webhooks/harness.ts';
import { spawnWorker, type WorkerProcess } from '../worker/spawnWorker.ts';

/**
 * The status page as a person sees it, in a real browser: headless Chromium (Debian's `chromium`
 * package; .ci/run installs it) driven by puppeteer-core, against a real worker that synced the
 * sandbox and delivered a webhook. Without Chromium the tests say so and skip.
 */

const CHROMIUM = '/usr/bin/chromium';
const NO_CHROMIUM = `Chromium is not installed at ${CHROMIUM} (apt-get install -y chromium): the status page was not tested in a browser`;
/** Flags for a closed network: no background connections Chromium would wait on (they are refused here). */
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const USER = 'ops';
const PASSWORD = 'status-page-test-password';

const chromiumInstalled = existsSync(CHROMIUM);
const prefix = testRedisPrefix('statuspage');
let t: TestDatabase | undefined;
let worker: WorkerProcess | undefined;
let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
let browser: Browser | undefined;
let profile: string | undefined;
let pageUrl = '';
/** The change this test writes after the sync: its subject tells its row apart from the sync's events. */
const delivered = testEvent({
  type: 'shipment.delivered',
  subject: { kind: 'shipment', key: 'STATUS-PAGE-1' },
});

beforeAll(async () => {
  if (!chromiumInstalled) {
    console.warn(NO_CHROMIUM);
    return;
  }
  t = await createTestDatabase();
  receiver = await startReceiver();
  const endpoint = await addEndpoint(t.pool, { url: receiver.url('/hook') }, LOCAL_RECEIVERS);
  receiver.on('/hook', endpoint.secret, () => ({ status: 200 }));
  worker = spawnWorker({
    DATABASE_URL: t.url,
    REDIS_URL: inject('redisUrl'),
    FULFILLMENT_QUEUE_PREFIX: prefix,
    DASHBOARD_USER: USER,
    DASHBOARD_PASSWORD: PASSWORD,
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  });
  // Sandbox mode: the worker syncs the in-process simulator at once.
  await worker.waitForLog(/"durationMs"/, 90_000);
  await worker.waitForLog(/worker started/, 30_000);
  await waitFor(
    'every sandbox scope of shipments synced',
    async () => {
      const { rows } = await t!.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM sync.cursors WHERE stream = 'shipments' AND last_success_at IS NOT NULL`,
      );
      return rows[0]!.n >= 2;
    },
    90_000,
    100,
  );
  const started = JSON.parse(worker.lines.find((l) => l.includes('worker started'))!) as { httpPort: number };
  pageUrl = `http://127.0.0.1:${started.httpPort}/status`;
  // A change after the first load (which is history, not sent): written as a sync writes it.
  const now = Date.now();
  await writeEvents(
    t.pool,
    [
      {
        ...delivered,
        occurredAt: new Date(now - 15_000).toISOString(),
        detectedAt: new Date(now).toISOString(),
      },
    ],
    { stream: 'shipments', scope: '1001', suppressed: false },
  );
  await waitFor('the webhook at the receiver', () => receiver!.received('/hook').length === 1, 30_000);
  await waitFor('its delivery recorded', async () => {
    const { rows } = await t!.pool.query(
      `SELECT 1 FROM sync.webhook_delivery_states WHERE event_id = $1 AND status = 'succeeded'`,
      [delivered.id],
    );
    return rows.length === 1;
  });
  profile = mkdtempSync(path.join(tmpdir(), 'fs-chromium-'));
  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    pipe: true,
    args: [...CHROMIUM_FLAGS, `--user-data-dir=${profile}`],
  });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
  if (worker) {
    worker.child.kill('SIGTERM');
    await worker.exited;
  }
  await receiver?.close();
  await t?.close();
  const redis = new Redis(inject('redisUrl'), { maxRetriesPerRequest: 1 });
  await cleanupRedisPrefix(redis, prefix);
  redis.disconnect();
});

/** The rows of a section's table as a person reads them (each row's visible text). */
async function rowsOf(page: import('puppeteer-core').Page, section: string): Promise<string[]> {
  return page.$$eval(`#${section} tbody tr`, (rows) =>
    rows.map((r) => (r as unknown as { innerText: string }).innerText),
  );
}

describe('the status page in headless Chromium', () => {
  it('answers 401 without the dashboard’s credentials', async ({ skip }) => {
    if (!browser) skip(NO_CHROMIUM);
    const page = await browser!.newPage();
    try {
      // What the browser gets: a 401 asking for basic credentials; headless, the prompt is cancelled
      // and the navigation ends there, nothing of the page shown.
      // The response event may come after goto has given up on the cancelled prompt (on a busy
      // machine it often does): wait for it rather than read what has arrived so far.
      const answer = page.waitForResponse((response) => response.url() === pageUrl);
      const navigation = await page.goto(pageUrl).then(
        (response) => `HTTP ${response?.status()}`,
        (error: Error) => error.message,
      );
      expect(navigation).toMatch(/ERR_INVALID_AUTH_CREDENTIALS|HTTP 401/);
      const response = await answer;
      expect({ status: response.status(), challenge: response.headers()['www-authenticate'] }).toEqual({
        status: 401,
        challenge: expect.stringMatching(/^Basic /),
      });
    } finally {
      await page.close();
    }
  });

  it('shows, after a sync, each stream’s freshness, the endpoint’s health and the latest events', async ({
    skip,
  }) => {
    if (!browser) skip(NO_CHROMIUM);
    const page = await browser!.newPage();
    try {
      await page.authenticate({ username: USER, password: PASSWORD });
      const response = await page.goto(pageUrl);
      expect(response?.status()).toBe(200);
      expect(await page.title()).toBe('fulfillment-sync status');

      const streams = await rowsOf(page, 'streams');
      // shipments for the sandbox's account: fresh (or behind), its data age against its 60 s target.
      const shipments = streams.find((r) => /^shipments\s/.test(r));
      expect(shipments, streams.join('\n---\n')).toMatch(/\b(fresh|behind)\b/);
      expect(shipments).toMatch(/\d+[smh] of 60s target/);
      expect(shipments).toMatch(/\d+[smh] ago/);
      expect(
        await page.$eval('#streams .summary', (e) => (e as unknown as { innerText: string }).innerText),
      ).toMatch(/\d+ fresh/);

      const endpoints = await rowsOf(page, 'endpoints');
      expect(endpoints).toHaveLength(1);
      expect(endpoints[0]).toContain('healthy');
      expect(endpoints[0]).toContain(receiver!.url('/hook'));
      expect(endpoints[0]).toMatch(/100% of 1/);

      // The first load's many events are history (stored, not sent): the change after it is what shows.
      const events = await rowsOf(page, 'events');
      const ours = events.find((r) => r.includes('shipment STATUS-PAGE-1'));
      expect(ours, events.join('\n---\n')).toContain('shipment.delivered');
      expect(ours).toContain('1 delivered');
      expect(ours).toMatch(/\d+s ago/);
      expect(events.some((r) => r.includes('history'))).toBe(false);
    } finally {
      await page.close();
    }
  });

  it('reads on a phone: rows become cards and nothing scrolls sideways', async ({ skip }) => {
    if (!browser) skip(NO_CHROMIUM);
    const page = await browser!.newPage();
    try {
      await page.setViewport({
        width: 390,
        height: 844,
        isMobile: true,
        hasTouch: true,
        deviceScaleFactor: 3,
      });
      await page.authenticate({ username: USER, password: PASSWORD });
      expect((await page.goto(pageUrl))?.status()).toBe(200);
      // Evaluated in the page (a string: the test's own types know no DOM).
      const layout = await page.evaluate(`(() => {
        const cell = document.querySelector('#streams tbody td[data-label="Freshness"]');
        return {
          overflow: document.documentElement.scrollWidth - window.innerWidth,
          header: getComputedStyle(document.querySelector('#streams thead')).display,
          row: getComputedStyle(cell.parentElement).display,
          label: getComputedStyle(cell, '::before').content,
        };
      })()`);
      expect(layout).toEqual({ overflow: 0, header: 'none', row: 'block', label: '"Freshness"' });
    } finally {
      await page.close();
    }
  });
});
