import type { Config, StreamName } from '../../config/types.ts';
import { STREAM_SCOPE_KIND } from '../../worker/streamScopes.ts';
import type { StreamStatus } from './streamStatus.ts';

/**
 * The configuration to plan the polling with. In sandbox mode it names no supplier or account (the
 * worker takes the simulator's world), so the plan counts the scopes the sync has stored instead
 * of showing none. Pure.
 */
export function withPlannedScopes(
  config: Config,
  rows: readonly Pick<StreamStatus, 'stream' | 'scope'>[],
): Config {
  if (config.supplierIds.length > 0 || config.accountNumbers.length > 0) return config;
  const stored = (kind: 'account' | 'supplier') => [
    ...new Set(rows.filter((r) => STREAM_SCOPE_KIND[r.stream as StreamName] === kind).map((r) => r.scope)),
  ];
  return { ...config, supplierIds: stored('supplier'), accountNumbers: stored('account') };
}
