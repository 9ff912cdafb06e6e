import { type CliResult, runSourceCli } from '../../helpers/cli.ts';

/**
 * `fulfillment-sync sync --once` from source with `env`: every stream for every scope once, in
 * order (orders last, so the order details the shipments and returns asked for are fetched), each
 * waiting for its stream and scope's lease. Exit code 0 means every run succeeded.
 */
export function syncOnce(env: Record<string, string>): Promise<CliResult> {
  return runSourceCli(['sync', '--once'], { env: { ...process.env, LOG_LEVEL: 'warn', ...env } });
}
