import type { TransferOut } from '../api/records/index.ts';
import { keyTextOf } from '../db/keys.ts';
import { transfersOut } from '../db/schema/transfersOut.ts';
import { rereadDayWindows } from '../sync/plan.ts';
import { recordEntity } from '../sync/rows.ts';
import type { StreamDefinition } from '../sync/types.ts';
import { wireDayBounds } from '../sync/wireBounds.ts';
import type { StreamClient } from './client.ts';

const KEY = ['supplier_id', 'order_number'] as const;

/** Transfers/OUTs/Search per supplier: day windows re-reading the last 30 days (statuses move). */
export const transfersOutStream: StreamDefinition<TransferOut, StreamClient> = {
  name: 'transfers_out',
  scopeKind: 'supplier',
  subjectKind: 'transfer_out',
  planWindows: rereadDayWindows,
  fetchWindow: async ({ client, scope, window, timezone }) => {
    const answer = await client.searchTransfersOut({
      supplierId: scope.id,
      ...wireDayBounds(window, timezone),
    });
    return { ...answer, apiCalls: 1 };
  },
  entity: recordEntity(transfersOut, KEY, (record, ctx) => ({
    supplier_id: keyTextOf(record.supplierId) || ctx.scope.id,
    raw: record,
  })),
};
