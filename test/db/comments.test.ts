import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ALL_RELATIONS } from '../../src/db/allTables.ts';
import { migrationFiles } from '../../src/db/comments/migrationFiles.ts';
import {
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
    const applied = new Map<string, string>();
    for (const file of migrationFiles()) {
      for (const [target, text] of parseCommentsSql(readFileSync(file, 'utf8'))) applied.set(target, text);
    }
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
});
