import { joinKeyParts } from './keyParts.ts';
import type { DeriveContext } from './types.ts';

/**
 * The episode marker of a repeatable transition (a status change, a status reached, a balance
 * change), appended to its dedupe transition as `@<marker>`. Without it a record that legitimately
 * repeats a transition (IN_TRANSIT>EXCEPTION a second time) would get the first episode's id and
 * `ON CONFLICT DO NOTHING` would drop the real event.
 *
 * The marker is the record's upstream time (ISO UTC) when it advanced with this change (`after`
 * later than `before`): it belongs to this episode alone, and every reader of the same change
 * derives the same id. Otherwise the record carries nothing that tells episodes apart, so the
 * marker is detectedAt: safe because events are written in the same transaction as the rows, so a
 * re-run after the commit sees no difference and derives nothing, and a rolled-back run stored no
 * event to duplicate.
 */
export function episodeMarker(
  before: string | undefined,
  after: string | undefined,
  ctx: DeriveContext,
): string {
  if (after && (!before || after > before)) return after;
  return ctx.detectedAt.toISOString();
}

/** A transition with its episode: `<transition>@<marker>`. */
export function inEpisode(transition: string, marker: string): string {
  return `${transition}@${marker}`;
}

/**
 * The transition part of a status change, `from>to`, each code escaped (keyParts.ts) against '>' and
 * the '@' of `inEpisode`: open-enum codes are upstream text, and 'A>B' then 'C' must not pass for
 * 'A' then 'B>C'. Codes without those characters read as before, so existing ids hold.
 */
export function statusTransition(from: string | null | undefined, to: string | null | undefined): string {
  return joinKeyParts('>', [from ?? '', to ?? ''], '@');
}
