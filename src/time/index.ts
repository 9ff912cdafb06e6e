export { addDays, startOfWallDay, type WallClockDay, wallClockDay } from './days.ts';
export { formatWireDay, formatWireMinute } from './format.ts';
export {
  type AmbiguousTime,
  DEFAULT_AMBIGUOUS_TIME,
  InvalidDateTimeError,
  parseDateTime,
  parseUpstreamDateTime,
} from './parse.ts';
export { type InstantRange, type WireBounds, wireDayBounds, wireMinuteBounds } from './wireBounds.ts';
export { instantsOfWallMinute, instantsOfWallTime, offsetTransitions, zoneOffsetMinutes } from './zone.ts';
