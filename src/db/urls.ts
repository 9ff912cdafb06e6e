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

/** A URL safe to log: the password replaced. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '<unparseable database url>';
  }
}
