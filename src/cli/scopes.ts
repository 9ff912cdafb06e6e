import type { Scope } from '../sync/types.ts';

/** The variable that lists the scopes of each kind. */
export const SCOPE_VARIABLE: Readonly<Record<Scope['kind'], string>> = {
  supplier: 'FULFILLMENT_SUPPLIER_IDS',
  account: 'FULFILLMENT_ACCOUNT_NUMBERS',
};

/** The one line a sync prints when none of its streams has a scope configured. */
export function noScopesLine(kinds: Iterable<Scope['kind']>): string {
  const variables = [...new Set(kinds)].map((kind) => SCOPE_VARIABLE[kind]);
  return `nothing to sync: no scopes configured; set ${variables.join(' and/or ')} (comma lists of the supplier ids and account numbers to read).`;
}
