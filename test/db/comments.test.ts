import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ALL_RELATIONS } from '../../src/db/allTables.ts';
import { migrationFiles } from '../../src/db/comments/migrationFiles.ts';
import {
  appliedComments,
  collectComments,
  parseCommentsSql,
  pendingComments,
  renderCommentsSql,
} from '../../src/db/comments/render.ts';

describe('COMMENT ON descriptions', () => {
  it('describe every table and column of the schema', () => {
    expect(collectComments(ALL_RELATIONS).missing).toEqual([]);
  });

  it('are all in the committed migrations (run `npx tsx src/db/comments/write.ts` if not)', () => {
    const applied = appliedComments(migrationFiles().map((file) => readFileSync(file, 'utf8')));
    const pending = pendingComments(collectComments(ALL_RELATIONS).comments, applied);
    expect(pending.map((c) => c.target)).toEqual([]);
  });

  it('round-trip through SQL, quotes included', () => {
    const comments = [
      { target: 'TABLE "fulfillment"."x"', text: "it's a table" },
      { target: 'COLUMN "fulfillment"."x"."y"', text: 'plain' },
    ];
    const sql = renderCommentsSql(comments);
    expect(sql).toContain("IS 'it''s a table';");
    expect(sql).toContain('--> statement-breakpoint');
    expect([...parseCommentsSql(sql)]).toEqual(comments.map((c) => [c.target, c.text]));
    expect(pendingComments(comments, parseCommentsSql(sql))).toEqual([]);
    expect(pendingComments(comments, new Map([['TABLE "fulfillment"."x"', 'old']]))).toHaveLength(2);
  });

  it('are gone with a view that a later migration drops (drizzle-kit recreates a changed view so)', () => {
    const created = renderCommentsSql([
      { target: 'VIEW "fulfillment"."v"', text: 'a view' },
      { target: 'COLUMN "fulfillment"."v"."c"', text: 'a column' },
      { target: 'COLUMN "fulfillment"."vv"."c"', text: 'another view' },
    ]);
    const recreated =
      'DROP VIEW "fulfillment"."v";--> statement-breakpoint\nCREATE VIEW "fulfillment"."v" AS (SELECT 1);\n';
    expect([...appliedComments([created, recreated]).keys()]).toEqual(['COLUMN "fulfillment"."vv"."c"']);
  });
});
