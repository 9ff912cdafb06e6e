/**
 * Parses a Retry-After header (RFC 9110: delay-seconds or an HTTP-date) into milliseconds from
 * `now` (epoch ms); undefined when absent or unreadable. Fractional seconds are accepted, a date
 * in the past is 0. A date must name its day or month: Date.parse reads bare numbers like "1.5.2"
 * as dates, which would turn junk into a wait.
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  const trimmed = value?.trim();
  if (!trimmed) return undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  if (!/[A-Za-z]/.test(trimmed)) return undefined;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}
