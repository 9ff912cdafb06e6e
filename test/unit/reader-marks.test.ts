import { describe, expect, it } from 'vitest';
import { ALL_RELATIONS } from '../../src/db/allTables.ts';
import { relationShape } from '../../src/db/comments/render.ts';
import { SPEC_FIELD_TEXT } from '../../src/db/comments/specFields.ts';
import { SPEC_ORDER_FIELD_TEXT } from '../../src/db/comments/specOrderFields.ts';
import {
  DIRECT_MARKS,
  MASKED_TABLE_MARKS,
  normalisedMemberName,
  SAFE_MEMBER_NAMES,
} from '../../src/db/pii/marking.ts';

/**
 * The reader's marks (src/db/pii/marks/) against the Drizzle schema: every relation a reader could
 * be meant to read is marked column by column, and no mark names what does not exist. What is not
 * marked is closed to the reader at run time anyway: these tell the author of a new relation or column
 * to decide, before a reader finds it missing.
 */

const shapes = ALL_RELATIONS.map(relationShape).filter(
  (s) => s.schema === 'fulfillment' || s.schema === 'analytics',
);

describe('the reader marks', () => {
  it('mark every column of every table and view of fulfillment and analytics', () => {
    const unmarked: string[] = [];
    for (const shape of shapes) {
      const qualified = `${shape.schema}.${shape.name}`;
      const marks =
        shape.kind === 'TABLE' && shape.schema === 'fulfillment' ? MASKED_TABLE_MARKS : DIRECT_MARKS;
      const relation = marks.get(qualified);
      if (!relation) {
        unmarked.push(
          `${qualified} (add it to src/db/pii/marks/${shape.schema === 'analytics' ? 'analytics' : shape.kind === 'TABLE' ? 'fulfillment' : 'views'}.ts)`,
        );
        continue;
      }
      for (const column of shape.columns) if (!relation.has(column)) unmarked.push(`${qualified}.${column}`);
    }
    expect(unmarked).toEqual([]);
  });

  it('name only relations and columns that exist', () => {
    const known = new Map(shapes.map((s) => [`${s.schema}.${s.name}`, new Set(s.columns)]));
    const stale: string[] = [];
    for (const marks of [MASKED_TABLE_MARKS, DIRECT_MARKS]) {
      for (const [relation, columns] of marks) {
        const existing = known.get(relation);
        if (!existing) stale.push(relation);
        else
          for (const column of columns.keys()) if (!existing.has(column)) stale.push(`${relation}.${column}`);
      }
    }
    expect(stale).toEqual([]);
  });

  it('read a JSON member as its column is read: a member let through names no column masked or closed', () => {
    const allowed = new Set(SAFE_MEMBER_NAMES);
    const disagree: string[] = [];
    for (const [relation, columns] of MASKED_TABLE_MARKS) {
      for (const [column, mark] of columns) {
        if (mark !== 'safe' && allowed.has(normalisedMemberName(column)))
          disagree.push(`${relation}.${column} (${mark})`);
      }
    }
    expect(disagree).toEqual([]);
  });

  it('let through every spec field its table marks safe', () => {
    const spec = new Set([...Object.keys(SPEC_FIELD_TEXT), ...Object.keys(SPEC_ORDER_FIELD_TEXT)]);
    const allowed = new Set(SAFE_MEMBER_NAMES);
    const missing = new Set<string>();
    for (const columns of MASKED_TABLE_MARKS.values()) {
      for (const [column, mark] of columns) {
        if (mark === 'safe' && spec.has(column) && !allowed.has(normalisedMemberName(column)))
          missing.add(column);
      }
    }
    expect([...missing].sort()).toEqual([]);
  });

  it('list each JSON member once, normalised as the masking compares it', () => {
    expect(SAFE_MEMBER_NAMES.length).toBeGreaterThan(150);
    for (const name of SAFE_MEMBER_NAMES) expect(name).toMatch(/^[a-z0-9]+$/);
    for (const personal of [
      'firstname',
      'notificationemail',
      'address1',
      'giftmessage',
      'message',
      'createdby',
      'notetext',
    ]) {
      expect(SAFE_MEMBER_NAMES, personal).not.toContain(personal);
    }
  });
});
