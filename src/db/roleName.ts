/** Names Postgres keeps for itself: GRANT ... TO public means everyone, the others are keywords. */
const RESERVED = new Set(['public', 'none', 'current_user', 'current_role', 'session_user']);

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;
/** NAMEDATALEN - 1: Postgres silently truncates longer names, which would grant another role. */
const MAX_LENGTH = 63;

/**
 * Why `name` cannot be a reader role name, or undefined when it can. Only plain lowercase
 * identifiers pass, so the name means the same role quoted or not (psql -U, SET ROLE, BI tools).
 */
export function roleNameProblem(name: string): string | undefined {
  const shown = JSON.stringify(name.length > 70 ? `${name.slice(0, 67)}...` : name);
  if (!IDENTIFIER.test(name) || name.length > MAX_LENGTH) {
    return `must be a lowercase role name (a-z, 0-9 and _, not starting with a digit, at most ${MAX_LENGTH} characters), got ${shown}`;
  }
  if (name.startsWith('pg_')) return `must not start with pg_ (reserved by Postgres), got ${shown}`;
  if (RESERVED.has(name)) return `must not be ${shown}, which Postgres reserves`;
  return undefined;
}
