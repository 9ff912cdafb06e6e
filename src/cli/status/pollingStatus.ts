import type { PollPlan, StreamPoll } from '../../polling/pollPlan.ts';
import { formatDuration } from './statusTable.ts';
import type { StreamStatus } from './streamStatus.ts';

/** One stream's polling in `status`: what the scheduler aims for and does, and what it gets. */
export interface StreamPolling {
  stream: string;
  /** What sets its polling: its freshness target, a cadence, or nothing (on demand). */
  rule: StreamPoll['rule'];
  targetSeconds: number | null;
  /** Seconds between two polls of one scope as the scheduler registers them; null on demand. */
  intervalSeconds: number | null;
  /** The oldest a change gets before it reaches subscribers under that interval. */
  reachesSeconds: number | null;
  /** The largest lag over its scopes now (`lagSeconds` of the rows); null before any success. */
  observedLagSeconds: number | null;
  /** Upstream calls one poll of one scope costs (an estimate: see src/polling/callsPerPoll.ts). */
  callsPerPoll: number;
  scopes: number;
}

/** The polling part of `status`: the plan at this configuration, with the observed lags. */
export interface PollingStatus {
  budgetCallsPerSecond: number;
  callsPerSecond: number;
  /** The factor the budget stretched every target-derived interval by (1: the targets fit). */
  stretch: number;
  streams: StreamPolling[];
}

/** The plan next to what the rows show. Pure. */
export function pollingStatus(plan: PollPlan, rows: readonly StreamStatus[]): PollingStatus {
  return {
    budgetCallsPerSecond: plan.budgetCallsPerSecond,
    callsPerSecond: plan.callsPerSecond,
    stretch: plan.stretch,
    streams: plan.streams.map((poll) => {
      const lags = rows.filter((r) => r.stream === poll.stream && r.lagSeconds !== null);
      return {
        stream: poll.stream,
        rule: poll.rule,
        targetSeconds: poll.targetSeconds,
        intervalSeconds: poll.intervalSeconds,
        reachesSeconds: poll.reachesSeconds,
        observedLagSeconds: lags.length === 0 ? null : Math.max(...lags.map((r) => r.lagSeconds!)),
        callsPerPoll: poll.callsPerPoll,
        scopes: poll.scopes.length,
      };
    }),
  };
}

const seconds = (value: number | null) => (value === null ? '-' : formatDuration(value));

/** The polling table of `status`: per stream its target, interval, freshness reached, lag and cost. */
export function formatPolling(status: PollingStatus): string[] {
  const header = ['stream', 'target', 'interval', 'reaches', 'lag', 'calls/poll', 'scopes'];
  const body = status.streams.map((s) =>
    s.rule === 'on-demand'
      ? [s.stream, '-', 'on demand', '-', seconds(s.observedLagSeconds), '-', String(s.scopes)]
      : [
          s.stream,
          s.rule === 'target' ? seconds(s.targetSeconds) : 'cadence',
          seconds(s.intervalSeconds),
          seconds(s.reachesSeconds),
          seconds(s.observedLagSeconds),
          String(s.callsPerPoll),
          String(s.scopes),
        ],
  );
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => `  ${cells.map((c, i) => c.padEnd(widths[i]!)).join('  ')}`.trimEnd();
  const used = `${status.callsPerSecond.toFixed(2)} of ${status.budgetCallsPerSecond.toFixed(2)} calls/s`;
  const stretched =
    status.stretch > 1 ? `; the budget stretches every target's interval x${status.stretch.toFixed(2)}` : '';
  return [
    '',
    `polling (${used} of the polling budget${stretched}):`,
    line(header),
    ...body.map(line),
    '  reaches: the oldest a change gets before subscribers have it; lag: the largest over the scopes now',
  ];
}
