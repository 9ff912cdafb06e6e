import type { Scope } from '../sync/types.ts';

/** The variable that lists the scopes of each kind. */
export const SCOPE_VARIABLE: Readonly<Record<Scope['kind'], string>> = {
  supplier: 'FULFILLMENT_SUPPLIER_IDS',
  account: 'FULFILLMENT_ACCOUNT_NUMBERS',
};

/** What each kind's variable lists. */
const SCOPE_LIST: Readonly<Record<Scope['kind'], string>> = {
  supplier: 'the supplier ids',
  account: 'the account numbers',
};

/** The one line `sync` and `backfill` print when none of their streams has a scope configured. */
export function noScopesLine(kinds: Iterable<Scope['kind']>): string {
  const unique = [...new Set(kinds)];
  const variables = unique.map((kind) => SCOPE_VARIABLE[kind]).join(' and/or ');
  const lists = unique.map((kind) => SCOPE_LIST[kind]).join(' and ');
  const what = unique.length > 1 ? 'comma lists of' : 'a comma list of';
  return `nothing to sync: no scopes configured; set ${variables} (${what} ${lists} to read).`;
}
