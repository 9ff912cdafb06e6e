const HOUR = 3_600_000;
const WALL_MINUTE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}))?$/;

/**
 * Wall-clock time in one zone (default America/Los_Angeles), fast enough to format a million
 * records: the zone offset is looked up once per hour and cached.
 */
export class Zone {
  private readonly offsets = new Map<number, number>();
  private readonly parts: Intl.DateTimeFormat;

  constructor(readonly timeZone: string) {
    this.parts = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
  }

  /** The zone's offset from UTC at an instant, in ms. */
  offset(ms: number): number {
    const bucket = Math.floor(ms / HOUR);
    let off = this.offsets.get(bucket);
    if (off === undefined) {
      off = this.offsetAt(bucket * HOUR);
      this.offsets.set(bucket, off);
    }
    return off;
  }

  // Read from Intl directly: date-fns-tz 3 getTimezoneOffset answers PST for the last PDT hour
  // before the November change (2026-11-01T07:59Z gives -8 h), which would misfile that hour.
  private offsetAt(ms: number): number {
    const p: Record<string, number> = {};
    for (const part of this.parts.formatToParts(new Date(ms))) p[part.type] = Number(part.value);
    const wall = Date.UTC(
      p.year ?? 0,
      (p.month ?? 1) - 1,
      p.day ?? 1,
      p.hour ?? 0,
      p.minute ?? 0,
      p.second ?? 0,
    );
    return wall - ms;
  }

  /** ISO 8601 with the zone's offset, e.g. 2026-11-01T01:30:00-08:00 (unambiguous in the repeated hour). */
  iso(ms: number): string {
    const off = this.offset(ms);
    const wall = new Date(ms + off).toISOString().slice(0, 19);
    const sign = off < 0 ? '-' : '+';
    const abs = Math.abs(off) / 60_000;
    const hh = String(Math.floor(abs / 60)).padStart(2, '0');
    const mm = String(abs % 60).padStart(2, '0');
    return `${wall}${sign}${hh}:${mm}`;
  }

  /** Wall-clock time without offset, yyyy-MM-ddTHH:mm:ss. */
  isoLocal(ms: number): string {
    return new Date(ms + this.offset(ms)).toISOString().slice(0, 19);
  }

  /** Wall-clock minute, yyyy-MM-ddTHH:mm: what shipment-update windows compare. */
  wallMinute(ms: number): string {
    return new Date(ms + this.offset(ms)).toISOString().slice(0, 16);
  }

  /** Wall-clock date, yyyy-MM-dd: what day windows compare. */
  wallDate(ms: number): string {
    return new Date(ms + this.offset(ms)).toISOString().slice(0, 10);
  }

  /**
   * The instants whose wall-clock reading is `wall` (yyyy-MM-ddTHH:mm), widened to cover every
   * reading: two in the repeated November hour, and a best effort around the spring gap.
   * Returns [earliest, latest].
   */
  instantsOf(wall: string): [number, number] {
    const m = WALL_MINUTE.exec(wall);
    if (!m) throw new Error(`not a wall-clock time: ${wall}`);
    const asUtc = Date.UTC(
      Number(m[1]),
      Number(m[2]) - 1,
      Number(m[3]),
      Number(m[4] ?? 0),
      Number(m[5] ?? 0),
    );
    // The offsets a day either side cover any transition near this reading; keep the candidates
    // that really read as `wall` (two in the repeated hour; none in the spring gap: keep both).
    const candidates = [asUtc - this.offset(asUtc - 24 * HOUR), asUtc - this.offset(asUtc + 24 * HOUR)];
    const exact = candidates.filter((c) => this.wallMinute(c) === new Date(asUtc).toISOString().slice(0, 16));
    const use = exact.length > 0 ? exact : candidates;
    return [Math.min(...use), Math.max(...use)];
  }

  /** Start of the wall-clock day containing `ms`. */
  startOfDay(ms: number): number {
    return this.instantsOf(this.wallDate(ms))[0];
  }
}

/** Parses a window bound (yyyy-MM-dd or yyyy-MM-ddTHH:mm); undefined when malformed. */
export function parseWallBound(value: string, end: boolean, allowMinutes: boolean): string | undefined {
  const m = WALL_MINUTE.exec(value);
  if (!m) return undefined;
  if (m[4] !== undefined && !allowMinutes) return undefined;
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59)) return undefined;
  if (!allowMinutes) return value;
  return m[4] !== undefined ? value : `${value}T${end ? '23:59' : '00:00'}`;
}
