import type { Endpoint } from '../../webhooks/endpoints/endpoints.ts';

/** The scopes this installation syncs (FULFILLMENT_ACCOUNT_NUMBERS, FULFILLMENT_SUPPLIER_IDS). */
export interface ConfiguredScopes {
  accountNumbers: readonly string[];
  supplierIds: readonly string[];
}

/**
 * A note for each filter id that no configured scope has: a typo there would otherwise pass in
 * silence, the endpoint getting nothing. Nothing is said when a list is not configured here (the
 * shell running the command may not have the worker's settings). Pure.
 */
export function unconfiguredScopeNotes(
  endpoint: Pick<Endpoint, 'accountNumbers' | 'supplierIds'>,
  configured: ConfiguredScopes,
): string[] {
  const notes: string[] = [];
  const check = (ids: readonly string[], known: readonly string[], variable: string, what: string) => {
    const missing = ids.filter((id) => !known.includes(id));
    if (known.length > 0 && missing.length > 0) {
      notes.push(
        `note: ${what} ${missing.join(', ')} not in ${variable} (${known.join(', ')}): no events come from ${missing.length > 1 ? 'them' : 'it'} until ${missing.length > 1 ? 'they are' : 'it is'}.`,
      );
    }
  };
  check(endpoint.accountNumbers, configured.accountNumbers, 'FULFILLMENT_ACCOUNT_NUMBERS', 'account(s)');
  check(endpoint.supplierIds, configured.supplierIds, 'FULFILLMENT_SUPPLIER_IDS', 'supplier(s)');
  return notes;
}
