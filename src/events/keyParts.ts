/**
 * Joining the parts of a key that makes an event id (subject keys, status transitions, the dedupe
 * key) so that it splits back one way only: in each part `\` becomes `\\` and every separator
 * character `c` becomes `\c`. Two records whose parts differ only in where a separator falls
 * ('FG:A' + 'B' vs 'FG' + 'A:B') get different keys, hence different ids.
 *
 * Escaping, not length prefixes: a part holding neither `\` nor a separator is written as before,
 * so every existing event keeps its id and subject key, and nothing already delivered is announced
 * again under a new id. Only keys whose parts hold a separator change (those were the colliding ones).
 */
export function escapeKeyPart(part: string, separators: string): string {
  let out = '';
  for (const char of part) out += char === '\\' || separators.includes(char) ? `\\${char}` : char;
  return out;
}

/** Parts joined by `separator`, each escaped (`escapeKeyPart`); `also` names separators added later. */
export function joinKeyParts(separator: string, parts: readonly string[], also = ''): string {
  return parts.map((part) => escapeKeyPart(part, separator + also)).join(separator);
}
