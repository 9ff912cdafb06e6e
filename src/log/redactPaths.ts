/** Keys whose values are secrets wherever they appear in a log object. */
export const SECRET_KEYS = [
  'authorization',
  'Authorization',
  'token',
  'accessToken',
  'access_token',
  'refreshToken',
  'refresh_token',
  'apiToken',
  'clientSecret',
  'client_secret',
  'secret',
  'webhookSecret',
  'password',
  'cookie',
  'set-cookie',
] as const;

function key(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : `["${name}"]`;
}

function join(prefix: string, name: string): string {
  const part = key(name);
  return part.startsWith('[') ? `${prefix}${part}` : `${prefix}.${part}`;
}

/**
 * pino `redact` paths for every secret key at the top level and up to three levels down
 * (`token`, `*.token`, `*.*.token`, `*.*.*.token`), plus header objects under common names.
 */
export function secretRedactPaths(): string[] {
  const paths: string[] = [];
  for (const name of SECRET_KEYS) {
    paths.push(key(name), join('*', name), join('*.*', name), join('*.*.*', name));
    for (const holder of ['headers', 'req.headers', 'request.headers', 'res.headers', 'config.headers']) {
      paths.push(join(holder, name));
    }
  }
  return paths;
}
