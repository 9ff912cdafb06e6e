import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../helpers/freePort.ts';
import { waitFor } from '../helpers/waitFor.ts';

/**
 * A real Prometheus server (Debian's `prometheus` package, the one that ships promtool; .ci/run
 * installs it) scraping one target every second, so tests evaluate the dashboard's PromQL against
 * what a worker really exports. Its data lives in a temporary directory removed on close.
 */
export interface PrometheusServer {
  url: string;
  /** An instant query: the series it returns, each with its labels and value ('NaN' included). */
  query: (expr: string) => Promise<{ metric: Record<string, string>; value: string }[]>;
  close: () => Promise<void>;
}

export const PROMETHEUS_MISSING =
  'prometheus is not installed (apt-get install --no-install-recommends prometheus): the dashboard queries were not evaluated';

/** Starts Prometheus scraping `target` (host:port) as job fulfillment-sync; undefined when it is not installed. */
export async function startPrometheus(target: string): Promise<PrometheusServer | undefined> {
  const dir = mkdtempSync(path.join(tmpdir(), 'fs-prometheus-'));
  const config = path.join(dir, 'prometheus.yml');
  writeFileSync(
    config,
    [
      'global:',
      '  scrape_interval: 1s',
      '  evaluation_interval: 1s',
      'scrape_configs:',
      '  - job_name: fulfillment-sync',
      '    static_configs:',
      `      - targets: ['${target}']`,
      '',
    ].join('\n'),
  );
  const port = await freePort();
  const child: ChildProcess = spawn(
    'prometheus',
    [
      `--config.file=${config}`,
      `--storage.tsdb.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += String(chunk);
  });
  const missing = await new Promise<boolean>((resolve) => {
    child.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ENOENT'));
    child.once('spawn', () => resolve(false));
  });
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  if (missing) {
    cleanup();
    return undefined;
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const close = async () => {
    child.kill('SIGTERM');
    await exited;
    cleanup();
  };
  try {
    await waitFor(
      'Prometheus to be ready',
      async () => {
        if (child.exitCode !== null) throw new Error(`prometheus exited: ${stderr}`);
        return (await fetch(`${url}/-/ready`).catch(() => undefined))?.ok === true;
      },
      30_000,
      100,
    );
  } catch (error) {
    await close();
    throw error;
  }
  return {
    url,
    close,
    query: async (expr) => {
      const response = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(expr)}`);
      const body = (await response.json()) as {
        status: string;
        error?: string;
        data?: { resultType: string; result: { metric: Record<string, string>; value: [number, string] }[] };
      };
      if (body.status !== 'success') throw new Error(`${expr}: ${body.error ?? response.status}`);
      return (body.data?.result ?? []).map((r) => ({ metric: r.metric, value: r.value[1] }));
    },
  };
}
