import { userInfo } from 'node:os';

/** The database name a Postgres URL points at. */
export function databaseNameOf(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
  if (!name)
    throw new Error('The database URL names no database: add one, e.g. postgres://host:5432/fulfillment');
  return name;
}

/** The same server URL pointing at another database (credentials and options kept). */
export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${encodeURIComponent(name)}`;
  return u.toString();
}

/** Quotes an SQL identifier (for statements that cannot take parameters, like CREATE DATABASE). */
export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * The URL pg should connect with. pg takes a missing user name from $USER, which minimal shells
 * and containers leave unset; Postgres' own clients fall back to the OS user, so we do the same.
 */
export function effectiveUrl(url: string, env: NodeJS.ProcessEnv = process.env): string {
  const u = new URL(url);
  if (u.username || env.PGUSER || env.USER) return url;
  u.username = encodeURIComponent(userInfo().username);
  return u.toString();
}
