import { gauge, histogram, scrapedGauge } from './metricKinds.ts';

/**
 * How current the data is meant to be and what keeping it so takes: each stream's freshness target
 * and the interval it is really polled at (its data age is fulfillment_stream_lag_seconds), how long sync runs take, and how far each
 * analytics view is behind its sources.
 */

/** One analytics view's refresh state, as the scrape reads it (sync.analytics_refreshes). */
export interface ViewRefresh {
  view: string;
  /** Its minimum refresh interval: a stale view is refreshed at most this often. */
  intervalSeconds: number;
  /** Seconds since the moment its last refresh showed (refreshed_as_of); null before the first. */
  ageSeconds: number | null;
  /** Whether its sources changed after that moment (a refresh is owed). */
  pending: boolean;
}

let viewRefreshSource: (() => Promise<ViewRefresh[]>) | undefined;

/** Sets where the analytics refresh gauges are read at scrape time (one query per scrape; see `sharedRead`). */
export function setViewRefreshSource(source: (() => Promise<ViewRefresh[]>) | undefined): void {
  viewRefreshSource = source;
}

function perView(name: string, help: string, value: (refresh: ViewRefresh) => number | null) {
  return scrapedGauge(
    name,
    help,
    ['view'],
    async () =>
      (await viewRefreshSource?.())?.flatMap((r) => {
        const v = value(r);
        return v === null ? [] : [[{ view: r.view }, v] as [{ view: string }, number]];
      }),
    { replaceSeries: true },
  );
}

export const freshnessMetrics = {
  freshnessTarget: gauge(
    'fulfillment_stream_freshness_target_seconds',
    "Each stream's freshness target (FULFILLMENT_STREAMS freshnessSeconds) where it sets the polling; alert when fulfillment_stream_lag_seconds passes three of it or of the poll interval, whichever is longer.",
    ['stream'],
  ),
  pollInterval: gauge(
    'fulfillment_stream_poll_interval_seconds',
    'Seconds between two polls of each scope of a stream as the scheduler runs them: from the freshness target, stretched when the polling budget is too small, or the cadence. Absent for on-demand streams.',
    ['stream'],
  ),
  runDuration: histogram(
    'fulfillment_sync_run_duration_seconds',
    'How long a sync run of a stream and scope took (skipped runs not counted), by stream and mode (incremental, backfill).',
    ['stream', 'mode'],
    [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900, 3600],
  ),
  analyticsRefreshAge: perView(
    'fulfillment_analytics_refresh_age_seconds',
    'Seconds since the moment each analytics view shows (its last refresh began); absent before its first refresh.',
    (r) => r.ageSeconds,
  ),
  analyticsRefreshPending: perView(
    'fulfillment_analytics_refresh_pending',
    'Whether the sources of each analytics view changed after its last refresh (1: a refresh is owed, 0: up to date).',
    (r) => (r.pending ? 1 : 0),
  ),
  analyticsRefreshInterval: perView(
    'fulfillment_analytics_refresh_interval_seconds',
    'The minimum interval between refreshes of each analytics view; alert when one owed is older than twice it.',
    (r) => r.intervalSeconds,
  ),
};
