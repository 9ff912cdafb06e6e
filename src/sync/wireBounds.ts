/**
 * The wire bounds of an engine window. One implementation, in src/time/wireBounds.ts (wall-clock
 * extremes of the window, a bound in the repeated autumn hour widened just out of it); the streams
 * import it from here beside the window planning of plan.ts.
 */
export { type WireBounds, wireDayBounds, wireMinuteBounds } from '../time/wireBounds.ts';
