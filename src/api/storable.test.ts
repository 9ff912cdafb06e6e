import { describe, expect, it } from 'vitest';
import { MAX_RECORD_DEPTH, makeStorable, storableText } from './storable.ts';

describe('makeStorable', () => {
  it('gives back the very same record when nothing needs repair (no copy on the hot path)', () => {
    const record = { header: { name: 'Château 🍷' }, lines: [{ qty: 1, notes: ['ok'] }] };
    const result = makeStorable(record);
    expect(result).toEqual({ ok: true, value: record, repairs: undefined });
    expect(result.ok && result.value).toBe(record);
  });

  it('repairs a copy and leaves the received record as it was', () => {
    const record = { lines: [{ sku: 'A\u0000' }, { sku: 'B' }] };
    const result = makeStorable(record);
    expect(result).toMatchObject({ ok: true, value: { lines: [{ sku: 'A' }, { sku: 'B' }] } });
    expect(record.lines[0]?.sku).toBe('A\u0000');
    expect(result.ok && (result.value as typeof record).lines[1]).toBe(record.lines[1]);
  });

  it('keeps both values when two keys differ only by a NUL', () => {
    const result = makeStorable({ 'a\u0000': 1, a: 2 });
    expect(result).toMatchObject({ ok: true, value: { a: 2, 'a\uFFFD': 1 } });
  });

  it('keeps a "__proto__" member as data, never as a prototype', () => {
    const record = JSON.parse('{"__proto__": {"x": "y\\u0000"}, "n": 1}') as Record<string, unknown>;
    const result = makeStorable(record);
    expect(result.ok).toBe(true);
    const value = (result.ok ? result.value : undefined) as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.hasOwn(value, '__proto__')).toBe(true);
    expect(JSON.stringify(value)).toBe('{"__proto__":{"x":"y"},"n":1}');
  });

  it(`accepts ${MAX_RECORD_DEPTH} levels and refuses one more`, () => {
    const nest = (levels: number): unknown => (levels === 1 ? {} : { a: nest(levels - 1) });
    expect(makeStorable(nest(MAX_RECORD_DEPTH)).ok).toBe(true);
    expect(makeStorable(nest(MAX_RECORD_DEPTH + 1)).ok).toBe(false);
  });

  it('cuts a preview where it may split an emoji, and still stores nothing broken', () => {
    let deep: unknown = 'end';
    for (let i = 0; i < 40; i++) deep = [deep];
    const result = makeStorable({ text: `${'x'.repeat(488)}🍷🍷`, deep });
    expect(result.ok).toBe(false);
    const preview = result.ok ? '' : (result.raw as { preview: string }).preview;
    expect(preview.length).toBeLessThanOrEqual(500);
    expect(storableText(preview)).toBe(preview);
  });
});
