import type pg from 'pg';
import { type AuditColumn, auditRelation, personalCount } from '../pii/audit.ts';
import type { ReadColumn, ReadTarget } from './targets.ts';

/** Rows per relation `grant-reader` reads before granting (newest first where a relation has synced_at). */
export const GRANT_SAMPLE_ROWS = 1000;

/** A column `grant-reader` withholds: values in it look personal, or its relation could not be read. */
export interface Suspect {
  /** `schema.relation.column`, or `schema.relation` when the relation could not be read. */
  what: string;
  /** What was found: `3 e-mails, 1 phone`, or the error. */
  why: string;
}

const TEXT_TYPE = /^(text|character varying|character|citext|name)\b/;
const JSON_TYPE = /^jsonb?$/;

/** The columns of a target that the value patterns must clear before it is granted. */
export function columnsToScreen(target: ReadTarget): AuditColumn[] {
  return target.columns.flatMap((column: ReadColumn): AuditColumn[] => {
    if (TEXT_TYPE.test(column.type)) return [{ name: column.name, json: false }];
    // A masking view's JSON is masked member by member as it is read (pii-audit reads it through).
    if (JSON_TYPE.test(column.type) && !target.masking) return [{ name: column.name, json: true }];
    return [];
  });
}

/**
 * Reads a sample of every target's text and JSON columns and keeps out of the grant each column
 * where a value looks like an e-mail, phone or street line, and every relation that could not be
 * read: a reader is granted only what was seen to be clear. Masking views hash such values as they
 * are read, so there only their key columns (read as stored) can be caught.
 */
export async function screenTargets(
  client: pg.ClientBase,
  targets: readonly ReadTarget[],
  rows: number = GRANT_SAMPLE_ROWS,
): Promise<{ targets: ReadTarget[]; suspects: Suspect[] }> {
  const kept: ReadTarget[] = [];
  const suspects: Suspect[] = [];
  for (const target of targets) {
    const newestFirst = target.columns.some((c) => c.name === 'synced_at') ? 'synced_at' : undefined;
    const audit = await auditRelation(
      client,
      { schema: target.schema, name: target.name, columns: columnsToScreen(target), newestFirst },
      { rows },
    );
    if (audit.error !== undefined) {
      suspects.push({ what: audit.relation, why: `could not be read: ${audit.error}` });
      continue;
    }
    const found = new Set<string>();
    for (const counts of audit.columns) {
      if (personalCount(counts) === 0) continue;
      found.add(counts.column);
      suspects.push({ what: `${audit.relation}.${counts.column}`, why: describeCounts(counts) });
    }
    const columns = target.columns.filter((c) => !found.has(c.name));
    if (columns.length > 0) kept.push({ ...target, columns });
  }
  return { targets: kept, suspects };
}

/** `3 e-mails, 1 phone, 2 street lines` (the shapes found only). */
export function describeCounts(counts: { email: number; phone: number; street: number }): string {
  const parts = [
    [counts.email, 'e-mail', 'e-mails'],
    [counts.phone, 'phone', 'phones'],
    [counts.street, 'street line', 'street lines'],
  ] as const;
  return parts
    .filter(([n]) => n > 0)
    .map(([n, one, many]) => `${n} ${n === 1 ? one : many}`)
    .join(', ');
}
