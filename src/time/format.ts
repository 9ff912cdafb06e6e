import { formatInTimeZone } from 'date-fns-tz';

/** The wall-clock day of `instant` in `tz` as the upstream's date-only parameter (`yyyy-MM-dd`). */
export function formatWireDay(instant: Date, tz: string): string {
  return formatInTimeZone(instant, tz, 'yyyy-MM-dd');
}

/** The wall-clock minute of `instant` in `tz` as a shipment-update bound (`yyyy-MM-dd'T'HH:mm`). */
export function formatWireMinute(instant: Date, tz: string): string {
  return formatInTimeZone(instant, tz, "yyyy-MM-dd'T'HH:mm");
}
