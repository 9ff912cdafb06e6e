import { getTimezoneOffset } from 'date-fns-tz';

const HOUR = 3_600_000;
const WALL_MINUTE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}))?$/;

/**
 * Wall-clock time in one zone (default America/Los_Angeles), fast enough to format a million
 * records: the zone offset is looked up once per hour and cached.
 */
export class Zone {
  private readonly offsets = new Map<number, number>();

  constructor(readonly timeZone: string) {}

  /** The zone's offset from UTC at an instant, in ms. */
  offset(ms: number): number {
    const bucket = Math.floor(ms / HOUR);
    let off = this.offsets.get(bucket);
    if (off === undefined) {
      off = getTimezoneOffset(this.timeZone, new Date(bucket * HOUR));
      this.offsets.set(bucket, off);
    }
    return off;
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
    const a = asUtc - this.offset(asUtc - 3 * HOUR);
    const b = asUtc - this.offset(asUtc + 3 * HOUR);
    return [Math.min(a, b), Math.max(a, b)];
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
