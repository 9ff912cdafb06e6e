import { cliCommand } from '../runtime/invocation.ts';

/**
 * Why a Postgres connection failed, in one line that names the cause and what to change in
 * DATABASE_URL, never the password. Answers undefined for errors that are not about reaching or
 * logging in to the database of `url` (a failing query, or another service such as Redis).
 */
export function describeConnectionProblem(error: unknown, url: string): string | undefined {
  const target = targetOf(url);
  if (!target) return undefined;
  const where = `${target.host}:${target.port}`;
  const e = error as ErrorFields | undefined;
  if (typeof e !== 'object' || e === null) return undefined;
  const server = typeof e.message === 'string' ? e.message : '';
  switch (e.code) {
    case '28P01':
      return `authentication failed for user "${target.user}" at ${where}: wrong password (check the password in DATABASE_URL).`;
    case '28000':
      if (/no encryption/i.test(server)) {
        return `the server at ${where} refuses connections without TLS (${server}): add ?sslmode=verify-full to DATABASE_URL (and sslrootcert=<file> for a private CA).`;
      }
      return `authentication failed for user "${target.user}" at ${where}: ${server} (check the user in DATABASE_URL).`;
    case '3D000':
      return `database "${target.database}" does not exist at ${where}: run \`${cliCommand('migrate')}\` (it creates it), or fix the name in DATABASE_URL.`;
    case '53300':
    case '57P03':
      return `the server at ${where} turned the connection away: ${server}.`;
  }
  if (server === 'The server does not support SSL connections') {
    return `TLS was asked for (sslmode in DATABASE_URL) but the server at ${where} does not support it: remove sslmode, or enable TLS on the server.`;
  }
  if (e.code && TLS_CERT_CODES.has(e.code) && target.tls) {
    return `TLS: the certificate of ${where} was not accepted (${e.code}): give its CA with sslrootcert=<file> in DATABASE_URL, or sslmode=no-verify to skip the check.`;
  }
  if (!aimsAt(e, target)) return undefined;
  switch (e.code) {
    case 'ECONNREFUSED':
      return `connection refused at ${where}: is Postgres running there? (check the host and port in DATABASE_URL)`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `host "${target.host}" not found (check the host in DATABASE_URL).`;
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `no answer from ${where} (${e.code}): check the host and port in DATABASE_URL, and that a firewall lets it through.`;
    case 'ECONNRESET':
      return `the server at ${where} closed the connection during login (${e.code}): it may require TLS (add ?sslmode=verify-full to DATABASE_URL).`;
  }
  return undefined;
}

interface ErrorFields {
  code?: string;
  message?: unknown;
  port?: number;
  hostname?: string;
  errors?: ErrorFields[];
}

interface Target {
  user: string;
  host: string;
  port: string;
  database: string;
  tls: boolean;
}

const TLS_CERT_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

function targetOf(url: string): Target | undefined {
  try {
    const u = new URL(url);
    return {
      user: decodeURIComponent(u.username) || process.env.PGUSER || process.env.USER || '(OS user)',
      host: u.hostname || 'localhost',
      port: u.port || '5432',
      database: decodeURIComponent(u.pathname.replace(/^\//, '')),
      tls: u.searchParams.has('sslmode') || u.searchParams.has('ssl'),
    };
  } catch {
    return undefined;
  }
}

/** A network error about this server (its port, or its host name), possibly inside an AggregateError. */
function aimsAt(e: ErrorFields, target: Target): boolean {
  const candidates = [e, ...(Array.isArray(e.errors) ? e.errors : [])];
  return candidates.some(
    (c) => String(c.port) === target.port || (c.hostname !== undefined && c.hostname === target.host),
  );
}
