import type { Invoice } from '../api/records/index.ts';
import { invoices } from '../db/schema/invoices.ts';
import { rereadDayWindows } from '../sync/plan.ts';
import { recordEntity } from '../sync/rows.ts';
import type { StreamDefinition } from '../sync/types.ts';
import { wireDayBounds } from '../sync/wireBounds.ts';
import type { StreamClient } from './client.ts';

const KEY = ['invoice_number'] as const;

/** Finances/invoices per account: day windows re-reading the last 90 days (payments change balances). */
export const invoicesStream: StreamDefinition<Invoice, StreamClient> = {
  name: 'invoices',
  scopeKind: 'account',
  subjectKind: 'invoice',
  planWindows: rereadDayWindows,
  fetchWindow: async ({ client, scope, window, timezone }) => {
    const answer = await client.listInvoices({ accountNumber: scope.id, ...wireDayBounds(window, timezone) });
    return { ...answer, apiCalls: 1 };
  },
  entity: recordEntity(invoices, KEY, (record, ctx) => ({
    account_number: record.accountNumber ?? ctx.scope.id,
    raw: record,
  })),
};
