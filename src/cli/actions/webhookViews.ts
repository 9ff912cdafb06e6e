import { maskedHeaders } from '../../webhooks/endpoints/endpointSettings.ts';
import type { Endpoint } from '../../webhooks/endpoints/endpoints.ts';
import { maskSecret } from '../../webhooks/endpoints/secret.ts';
import type { EndpointStats } from '../../webhooks/views/endpointStats.ts';

/**
 * How the `webhooks` commands show endpoints, attempts and statistics, as text lines or as JSON
 * (`--json`). Pure. An endpoint's secret only ever appears masked, and credential-like custom
 * header values too: the secret is printed in full by `add` and `rotate-secret` only.
 */

/** An endpoint as `list --json` and `get --json` print it: everything but its secrets. */
export interface EndpointView
  extends Pick<
    Endpoint,
    | 'id'
    | 'url'
    | 'description'
    | 'eventTypes'
    | 'accountNumbers'
    | 'supplierIds'
    | 'enabled'
    | 'disabledReason'
    | 'metadata'
    | 'rateLimitPerSecond'
  > {
  disabledBy: string | null;
  /** Masked: whsec_****abcd. */
  secret: string;
  /** While a rotation overlaps: when the previous secret stops signing. */
  previousSecretExpiresAt: string | null;
  /** Credential-like values masked. */
  headers: Record<string, string>;
  failingSince: string | null;
  createdAt: string;
}

export function endpointView(endpoint: Endpoint, now: Date): EndpointView {
  const overlapping = endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now;
  return {
    id: endpoint.id,
    url: endpoint.url,
    description: endpoint.description,
    eventTypes: endpoint.eventTypes,
    accountNumbers: endpoint.accountNumbers,
    supplierIds: endpoint.supplierIds,
    enabled: endpoint.enabled,
    disabledReason: endpoint.disabledReason,
    disabledBy: endpoint.disabledBy,
    secret: maskSecret(endpoint.secret),
    previousSecretExpiresAt: overlapping ? (endpoint.previousSecretExpiresAt?.toISOString() ?? null) : null,
    headers: maskedHeaders(endpoint.headers),
    metadata: endpoint.metadata,
    rateLimitPerSecond: endpoint.rateLimitPerSecond,
    failingSince: endpoint.failingSince?.toISOString() ?? null,
    createdAt: endpoint.createdAt.toISOString(),
  };
}

/** An endpoint's types as `add`, `list` and `get` show them: as given, or (all). */
export function typesText(types: readonly string[]): string {
  return types.length > 0 ? types.join(',') : '(all)';
}

/** An endpoint's scope filter: `accounts A1,A2; suppliers S1`, or (all). */
export function scopesText(filter: Pick<Endpoint, 'accountNumbers' | 'supplierIds'>): string {
  const parts = [
    filter.accountNumbers.length > 0 ? `accounts ${filter.accountNumbers.join(',')}` : '',
    filter.supplierIds.length > 0 ? `suppliers ${filter.supplierIds.join(',')}` : '',
  ].filter(Boolean);
  return parts.length > 0 ? parts.join('; ') : '(all)';
}

function stateText(view: EndpointView): string {
  return view.enabled ? 'enabled' : `disabled (${view.disabledReason ?? 'by hand'})`;
}

/** `webhooks list`: one line per endpoint. */
export function endpointLine(view: EndpointView): string {
  const rotating = view.previousSecretExpiresAt
    ? `  (previous secret signs too until ${view.previousSecretExpiresAt})`
    : '';
  const scopes = scopesText(view);
  const scoped = scopes === '(all)' ? '' : `  (${scopes})`;
  return `${view.id}  ${view.url}  ${typesText(view.eventTypes)}${scoped}  ${view.secret}  ${stateText(view)}${rotating}`;
}

/** `webhooks get`: one `name: value` line per setting. */
export function endpointLines(view: EndpointView): string[] {
  const headers = Object.entries(view.headers);
  return [
    `id: ${view.id}`,
    `url: ${view.url}`,
    `description: ${view.description ?? '-'}`,
    `types: ${typesText(view.eventTypes)}`,
    `scopes: ${scopesText(view)}`,
    `state: ${stateText(view)}`,
    ...(view.enabled ? [] : [`disabled by: ${view.disabledBy ?? 'operator'}`]),
    `secret: ${view.secret}${view.previousSecretExpiresAt ? ` (previous secret signs too until ${view.previousSecretExpiresAt})` : ''}`,
    `rate limit: ${view.rateLimitPerSecond === null ? 'none' : `${view.rateLimitPerSecond}/s`}`,
    `headers: ${headers.length > 0 ? headers.map(([name, value]) => `${name}: ${value}`).join('; ') : '-'}`,
    `metadata: ${JSON.stringify(view.metadata)}`,
    `failing since: ${view.failingSince ?? '-'}`,
    `created: ${view.createdAt}`,
  ];
}

/** Statistics for `--json`: dates as ISO strings. */
export function statsView(stats: EndpointStats): Record<string, unknown> {
  return {
    ...stats,
    since: stats.since.toISOString(),
    lastSuccessAt: stats.lastSuccessAt?.toISOString() ?? null,
    lastFailureAt: stats.lastFailureAt?.toISOString() ?? null,
  };
}

/** `webhooks stats`: one line per endpoint. */
export function statsLine(stats: EndpointStats): string {
  const rate = stats.successRate === null ? '-' : `${(stats.successRate * 100).toFixed(1)}%`;
  const ms = (value: number | null) => (value === null ? '-' : `${value} ms`);
  const state = stats.enabled ? 'enabled' : `disabled by ${stats.disabledBy ?? 'operator'}`;
  return [
    `${stats.endpointId}  ${state}`,
    `${stats.attempts} attempts (${stats.succeeded} succeeded, ${stats.failed} failed, ${stats.gaveUp} gave up)`,
    `success ${rate}`,
    `p50 ${ms(stats.p50Ms)}`,
    `p95 ${ms(stats.p95Ms)}`,
    `last success ${stats.lastSuccessAt?.toISOString() ?? '-'}`,
    `last failure ${stats.lastFailureAt?.toISOString() ?? '-'}`,
  ].join('  ');
}
