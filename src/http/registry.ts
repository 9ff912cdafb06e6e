import { Registry } from 'prom-client';

/** The one Prometheus registry of the process; `/metrics` serves it. Other modules import `metrics`. */
export const metricsRegistry = new Registry();
