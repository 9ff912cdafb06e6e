import { describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../events/types.ts';
import {
  endpointWants,
  ScopeFilterError,
  streamsScopedBy,
  UnknownEventTypeError,
  validateEventTypes,
  validateScopeIds,
} from './endpointFilter.ts';

const every = { eventTypes: [], accountNumbers: [], supplierIds: [] };
const shipmentOf = (scope: string | null) => ({ type: 'shipment.delivered', stream: 'shipments', scope });

describe('endpointWants: types', () => {
  it('wants every type when none is listed, the listed ones otherwise', () => {
    expect(endpointWants(every, shipmentOf('A1'))).toBe(true);
    const some = { ...every, eventTypes: ['shipment.delivered', 'order.hold_added'] };
    expect(endpointWants(some, shipmentOf('A1'))).toBe(true);
    expect(endpointWants(some, { ...shipmentOf('A1'), type: 'shipment.created' })).toBe(false);
  });

  it('a family pattern covers its types, also ones added later, and no other family', () => {
    const family = { ...every, eventTypes: ['shipment.*'] };
    for (const type of EVENT_TYPES) {
      expect(endpointWants(family, { type, stream: 'shipments', scope: 'A1' })).toBe(
        type.startsWith('shipment.'),
      );
    }
    expect(endpointWants(family, { type: 'shipment.label_printed', stream: 'shipments', scope: 'A1' })).toBe(
      true,
    );
    // The dot is part of the family: `shipment.*` is not `shipments_extra.*`.
    expect(endpointWants(family, { type: 'shipmentx.created', stream: 'shipments', scope: 'A1' })).toBe(
      false,
    );
  });
});

describe('endpointWants: scopes', () => {
  const accounts = { ...every, accountNumbers: ['A1'] };
  const suppliers = { ...every, supplierIds: ['S1'] };

  it('a listed account gets its account streams’ events only', () => {
    expect(endpointWants(accounts, shipmentOf('A1'))).toBe(true);
    expect(endpointWants(accounts, shipmentOf('A2'))).toBe(false);
    expect(endpointWants(accounts, { type: 'order.hold_added', stream: 'orders', scope: 'A1' })).toBe(true);
    // A supplier stream's event is no account's, even with the same id string.
    expect(endpointWants(accounts, { type: 'inventory.changed', stream: 'inventory', scope: 'A1' })).toBe(
      false,
    );
  });

  it('a listed supplier gets its supplier streams’ events only', () => {
    expect(endpointWants(suppliers, { type: 'inventory.changed', stream: 'inventory', scope: 'S1' })).toBe(
      true,
    );
    expect(endpointWants(suppliers, shipmentOf('S1'))).toBe(false);
    const both = { ...every, accountNumbers: ['A1'], supplierIds: ['S1'] };
    expect(endpointWants(both, shipmentOf('A1'))).toBe(true);
    expect(endpointWants(both, { type: 'transfer_in.created', stream: 'transfers_in', scope: 'S1' })).toBe(
      true,
    );
  });

  it('an event without a scope or a known stream reaches only endpoints without a scope filter', () => {
    for (const event of [
      { type: 'shipment.delivered', stream: null, scope: null },
      { type: 'shipment.delivered', stream: 'shipments', scope: null },
      { type: 'shipment.delivered', stream: 'somewhere', scope: 'A1' },
    ]) {
      expect(endpointWants(every, event)).toBe(true);
      expect(endpointWants(accounts, event)).toBe(false);
      expect(endpointWants(suppliers, event)).toBe(false);
    }
  });

  it('types and scopes must both agree', () => {
    const narrow = { eventTypes: ['order.*'], accountNumbers: ['A1'], supplierIds: [] };
    expect(endpointWants(narrow, shipmentOf('A1'))).toBe(false);
    expect(endpointWants(narrow, { type: 'order.status_changed', stream: 'orders', scope: 'A1' })).toBe(true);
  });

  it('every stream has a scope kind', () => {
    expect([...streamsScopedBy('account'), ...streamsScopedBy('supplier')].sort()).toEqual(
      [
        'inventory',
        'inventory_activity',
        'invoices',
        'orders',
        'products',
        'returns',
        'shipments',
        'transfers_in',
        'transfers_out',
      ].sort(),
    );
  });
});

describe('validateEventTypes', () => {
  it('keeps types and patterns as given, without repeats', () => {
    expect(validateEventTypes(['shipment.*', 'order.hold_added', 'shipment.*'])).toEqual([
      'shipment.*',
      'order.hold_added',
    ]);
    expect(validateEventTypes([])).toEqual([]);
  });

  it('refuses an unknown type, a pattern matching no type, and a * anywhere but the whole last part', () => {
    for (const bad of [
      'shipment.teleported',
      'shipmnt.*',
      'webhook.*',
      '*.created',
      'ship*',
      'shipment.*x',
      '.*',
    ]) {
      expect(() => validateEventTypes([bad]), bad).toThrow(UnknownEventTypeError);
    }
    expect(() => validateEventTypes(['shipmnt.*'])).toThrow(
      /^Unknown event type\(s\) or pattern\(s\): shipmnt\.\*\. Known types: .*; patterns: shipment\.\*, order\.\*/,
    );
  });
});

describe('validateScopeIds', () => {
  it('keeps ids in order without repeats and refuses blanks and spaces', () => {
    expect(validateScopeIds(['A2', 'A1', 'A2'], '--accounts')).toEqual(['A2', 'A1']);
    expect(() => validateScopeIds(['A 1'], '--accounts')).toThrow(ScopeFilterError);
    expect(() => validateScopeIds([''], '--suppliers')).toThrow('--suppliers: not an id: ""');
  });
});
