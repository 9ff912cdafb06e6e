import { describe, expect, it } from 'vitest';
import { dedupeByKey, diffChildren, diffRows, keyOf, type TableShape } from './diff.ts';
import type { ValueKind } from './valueKind.ts';

const shape: TableShape = {
  key: ['id'],
  kinds: new Map<string, ValueKind>([
    ['id', 'text'],
    ['at', 'timestamp'],
    ['amount', 'numeric'],
    ['raw', 'json'],
    ['n', 'int'],
    ['synced_at', 'timestamp'],
  ]),
};

describe('diffRows', () => {
  it('treats equal data in driver types as unchanged (Date vs ISO, numeric string vs number, jsonb key order)', () => {
    const stored = {
      id: 'a',
      at: new Date('2026-06-01T10:00:00Z'),
      amount: '12.50',
      raw: { b: 1, a: [1, 2] },
      n: 3,
      synced_at: new Date(),
    };
    const incoming = {
      id: 'a',
      at: new Date('2026-06-01T03:00:00-07:00'),
      amount: 12.5,
      raw: { a: [1, 2], b: 1 },
      n: 3,
    };
    const diff = diffRows([incoming], new Map([[keyOf(stored, shape), stored]]), shape);
    expect(diff.unchanged).toHaveLength(1);
  });

  it('classifies new and changed rows, keeping the previous row', () => {
    const stored = { id: 'a', n: 1 };
    const diff = diffRows(
      [
        { id: 'a', n: 2 },
        { id: 'b', n: 1 },
      ],
      new Map([[keyOf(stored, shape), stored]]),
      shape,
    );
    expect(diff.inserted).toEqual([{ id: 'b', n: 1 }]);
    expect(diff.updated).toEqual([{ row: { id: 'a', n: 2 }, previous: stored }]);
  });

  it('sees a null becoming a value and back', () => {
    const stored = { id: 'a', n: null };
    expect(
      diffRows([{ id: 'a', n: 0 }], new Map([[keyOf(stored, shape), stored]]), shape).updated,
    ).toHaveLength(1);
  });
});

describe('diffChildren', () => {
  it('inserts new, updates changed, deletes vanished and leaves equal children alone', () => {
    const child: TableShape = {
      key: ['id', 'line'],
      kinds: new Map<string, ValueKind>([
        ['line', 'int'],
        ['n', 'int'],
      ]),
    };
    const stored = [
      { id: 'a', line: 1, n: 1 },
      { id: 'a', line: 2, n: 1 },
      { id: 'a', line: 3, n: 1 },
    ];
    const diff = diffChildren(
      [
        { id: 'a', line: 1, n: 1 },
        { id: 'a', line: 2, n: 5 },
        { id: 'a', line: 4, n: 1 },
      ],
      stored,
      child,
    );
    expect(diff.inserted).toEqual([{ id: 'a', line: 4, n: 1 }]);
    expect(diff.updated).toEqual([{ id: 'a', line: 2, n: 5 }]);
    expect(diff.deleted).toEqual([{ id: 'a', line: 3, n: 1 }]);
  });
});

describe('dedupeByKey', () => {
  it('keeps the last row of a key (overlapping windows)', () => {
    expect(
      dedupeByKey(
        [
          { k: 1, v: 'old' },
          { k: 2, v: 'x' },
          { k: 1, v: 'new' },
        ],
        (r) => String(r.k),
      ),
    ).toEqual([
      { k: 2, v: 'x' },
      { k: 1, v: 'new' },
    ]);
  });
});
