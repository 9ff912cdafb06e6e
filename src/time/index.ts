export { addDays, startOfWallDay, type WallClockDay, wallClockDay } from './days.ts';
export { formatWireDay, formatWireMinute } from './format.ts';
export { InvalidDateTimeError, parseUpstreamDateTime } from './parse.ts';
export {
  dayWindows,
  minuteWindows,
  type SplitOptions,
  splitIntoWindows,
  type TimeWindow,
} from './windows.ts';
export { instantsOfWallMinute, offsetTransitions, zoneOffsetMinutes } from './zone.ts';
