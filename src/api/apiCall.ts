import { scrubSecrets } from './errors.ts';
import { buildPath, OPERATIONS, type OperationId } from './operations.ts';
import type { SettingNames } from './settingNames.ts';

/** One call as the operations describe it; query pairs already carry their wire names. */
export interface ApiRequest {
  operation: OperationId;
  pathParams?: Readonly<Record<string, string>>;
  query?: readonly (readonly [string, string])[];
  body?: unknown;
  /** Cancels the call and its retries (e.g. on shutdown). */
  signal?: AbortSignal;
}

/** A successful envelope's content. */
export interface ApiAnswer {
  payload: unknown;
  message: string | null;
}

/** The base URL without trailing slashes; refuses anything but an absolute http(s) URL. */
export function checkBaseUrl(raw: string, settingNames: SettingNames): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(raw);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw new Error(
      `the API base URL "${scrubSecrets(raw)}" is not an absolute http(s) URL; set ${settingNames.baseUrl} like https://host`,
    );
  }
  return raw.replace(/\/+$/, '');
}

/** Where `request` goes: `{baseUrl}/api/v1/{path}` with its query pairs, in order. */
export function requestUrl(baseUrl: string, request: ApiRequest): string {
  const spec = OPERATIONS[request.operation];
  const url = new URL(`${baseUrl}/api/v1/${buildPath(spec.path, request.pathParams)}`);
  for (const [name, value] of request.query ?? []) url.searchParams.append(name, value);
  return url.toString();
}
