import cliProgress from 'cli-progress';
import type { FetchProgress } from '../sync/types.ts';

/** Shows how far a long fetch (one order detail per call) has got. */
export interface FetchProgressDisplay {
  update: (progress: FetchProgress) => void;
  stop: () => void;
}

export interface FetchProgressOptions {
  /** Where it goes: stderr, so stdout keeps only the command's own output. */
  stream?: NodeJS.WritableStream & { isTTY?: boolean };
  /** Without a terminal, one line at most this often (default 5 s). */
  lineEveryMs?: number;
  /** Epoch ms; injected so tests control time. */
  now?: () => number;
}

/** Calls per second since the display began, to one decimal. */
function rateOf(done: number, startedAt: number, now: number): number {
  const seconds = (now - startedAt) / 1000;
  return seconds > 0 ? Math.round((done / seconds) * 10) / 10 : 0;
}

/** `12s`, `3m05s`: what is left at the current rate. */
export function formatEta(remaining: number, rate: number): string {
  if (rate <= 0) return '?';
  const seconds = Math.round(remaining / rate);
  return seconds < 60
    ? `${seconds}s`
    : `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
}

/**
 * The display of `label` (e.g. `orders ACC100`): a bar with done/total, rate and ETA on a terminal;
 * elsewhere (a log file, CI) one plain line every few seconds and a last one when done, so a long
 * first sync is never silent. Nothing shows until the first call: a run with nothing to fetch stays
 * quiet.
 */
export function createFetchProgressDisplay(
  label: string,
  options: FetchProgressOptions = {},
): FetchProgressDisplay {
  const stream = options.stream ?? process.stderr;
  const now = options.now ?? Date.now;
  const startedAt = now();
  return stream.isTTY
    ? barDisplay(label, stream, startedAt, now)
    : lineDisplay(label, stream, startedAt, now, options.lineEveryMs ?? 5000);
}

function barDisplay(
  label: string,
  stream: NodeJS.WritableStream,
  startedAt: number,
  now: () => number,
): FetchProgressDisplay {
  let bar: cliProgress.SingleBar | undefined;
  return {
    update: ({ done, total }) => {
      const rate = rateOf(done, startedAt, now());
      const payload = { rate: rate.toFixed(1), left: formatEta(total - done, rate) };
      if (!bar) {
        bar = new cliProgress.SingleBar(
          {
            stream: stream as NodeJS.WriteStream,
            format: `${label} [{bar}] {value}/{total} order details | {rate}/s | ETA {left}`,
            barsize: 30,
            hideCursor: true,
          },
          cliProgress.Presets.shades_classic,
        );
        bar.start(total, done, payload);
        return;
      }
      bar.setTotal(total);
      bar.update(done, payload);
    },
    stop: () => bar?.stop(),
  };
}

function lineDisplay(
  label: string,
  stream: NodeJS.WritableStream,
  startedAt: number,
  now: () => number,
  lineEveryMs: number,
): FetchProgressDisplay {
  let lastLineAt = startedAt;
  let last: FetchProgress | undefined;
  let printedDone = -1;
  const print = ({ done, total }: FetchProgress) => {
    const rate = rateOf(done, startedAt, now());
    stream.write(
      `${label}: ${done}/${total} order details, ${rate.toFixed(1)}/s, ETA ${formatEta(total - done, rate)}\n`,
    );
    printedDone = done;
    lastLineAt = now();
  };
  return {
    update: (progress) => {
      last = progress;
      if (now() - lastLineAt >= lineEveryMs) print(progress);
    },
    // The last count, once some line was printed: a reader of the log sees where it ended.
    stop: () => {
      if (last && printedDone >= 0 && printedDone !== last.done) print(last);
    },
  };
}
