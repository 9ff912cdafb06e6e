import type pg from 'pg';

/**
 * Holds a LISTEN connection to `channel` open: when it fails or ends, opens a new one after 1 s, 2 s, 4 s ...
 * up to `maxBackoffMs`, and calls `onNotification` once it listens again (events committed meanwhile
 * were announced to nobody).
 */
export async function keepListening(
  connect: () => Promise<pg.Client>,
  channel: string,
  onNotification: () => void,
  options: { maxBackoffMs: number; onError: (error: Error) => void; isStopped: () => boolean },
): Promise<{ close: () => Promise<void> }> {
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let failures = 0;
  const open = async (): Promise<void> => {
    if (options.isStopped()) return;
    let opened: pg.Client | undefined;
    try {
      const next = await connect();
      opened = next;
      next.on('notification', onNotification);
      next.on('error', (error) => lost(next, error));
      next.on('end', () => lost(next, new Error('LISTEN connection ended')));
      await next.query(`LISTEN ${channel}`);
      client = next;
      if (failures > 0) onNotification();
      failures = 0;
    } catch (error) {
      // Connected but not listening (LISTEN failed): close it, or every attempt leaves one open.
      opened?.end().catch(() => undefined);
      failures += 1;
      const waitMs = Math.min(1000 * 2 ** (failures - 1), options.maxBackoffMs);
      options.onError(
        new Error(`LISTEN ${channel} failed (${(error as Error).message}); retrying in ${waitMs} ms`),
      );
      retry = setTimeout(() => void open(), waitMs);
    }
  };
  const lost = (which: pg.Client, error: Error) => {
    if (client !== which || options.isStopped()) return;
    client = undefined;
    which.end().catch(() => undefined);
    failures = Math.max(failures, 1);
    options.onError(new Error(`LISTEN connection lost (${error.message}); reconnecting`));
    retry = setTimeout(() => void open(), 1000);
  };
  await open();
  return {
    close: async () => {
      clearTimeout(retry);
      const current = client;
      client = undefined;
      await current?.end().catch(() => undefined);
    },
  };
}
