/** How busy the simulated world is (per account or supplier, per simulated day). */
export interface Rates {
  ordersPerDay: number;
  transfersInPerDay: number;
  transfersOutPerDay: number;
  /** Share of tracking events that become visible hours after their eventTime (late carrier scans). */
  lateEventShare: number;
  /** Share of delivered shipments that come back as a return. */
  returnShare: number;
}

export const DEFAULT_RATES: Rates = {
  ordersPerDay: 30,
  transfersInPerDay: 2,
  transfersOutPerDay: 1,
  lateEventShare: 0.15,
  returnShare: 0.08,
};

export const MINUTE = 60_000;
export const HOUR_MINUTES = 60;
export const DAY_MINUTES = 1440;

/** The simulated minute containing an instant. */
export function minuteOf(ms: number): number {
  return Math.floor(ms / MINUTE);
}
