import cliProgress from 'cli-progress';
import type { BackfillProgress } from './runBackfill.ts';

/** A progress display: a bar on a terminal, plain lines (about every 10%) otherwise. */
export interface ProgressDisplay {
  update: (progress: BackfillProgress) => void;
  stop: () => void;
}

/** Creates the display for `stream` (stderr, so stdout keeps only the summary). */
export function createProgressDisplay(
  total: number,
  stream: NodeJS.WriteStream = process.stderr,
): ProgressDisplay {
  if (stream.isTTY) {
    const bar = new cliProgress.SingleBar(
      {
        stream,
        format: 'backfill [{bar}] {value}/{total} windows | {records} records | ETA {eta_formatted}',
        etaBuffer: 20,
      },
      cliProgress.Presets.shades_classic,
    );
    bar.start(total, 0, { records: 0 });
    return {
      update: (p) => bar.update(p.windowsDone, { records: p.recordsFetched }),
      stop: () => bar.stop(),
    };
  }
  const started = Date.now();
  let lastPrinted = -1;
  return {
    update: (p) => {
      const tenth = Math.floor((p.windowsDone / Math.max(1, p.windowsTotal)) * 10);
      if (tenth === lastPrinted && p.windowsDone !== p.windowsTotal) return;
      lastPrinted = tenth;
      const fresh = p.windowsDone - p.windowsResumed;
      const perWindow = fresh > 0 ? (Date.now() - started) / fresh : 0;
      const eta = Math.round(((p.windowsTotal - p.windowsDone) * perWindow) / 1000);
      stream.write(
        `backfill ${p.windowsDone}/${p.windowsTotal} windows, ${p.recordsFetched} records, ETA ${eta}s\n`,
      );
    },
    stop: () => undefined,
  };
}
