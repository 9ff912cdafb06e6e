import type { Logger } from 'pino';
import { createRedisConnection, type RedisConnection, type RedisTarget } from '../redis/connection.ts';

/** The longest wait between two reconnect attempts. */
export const MAX_RECONNECT_DELAY_MS = 5_000;

/** Waits before reconnect attempt `attempt` (1-based): 250 ms doubling up to MAX_RECONNECT_DELAY_MS. Pure. */
export function reconnectDelay(attempt: number, maxMs = MAX_RECONNECT_DELAY_MS): number {
  return Math.min(250 * 2 ** Math.max(0, attempt - 1), maxMs);
}

/** Connection-level failures (the server is away), as opposed to errors of a command or a script. */
export function isConnectionError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? '';
  const message = (error as Error | undefined)?.message ?? '';
  return (
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'EPIPE', 'EAI_AGAIN'].includes(
      code,
    ) ||
    /Connection is closed|Stream isn't writeable|connect ETIMEDOUT|read ECONNRESET|ECONNREFUSED/.test(
      message,
    ) ||
    // Sentinel while a failover is under way, and a Cluster none of whose nodes answers.
    /All sentinels are unreachable|None of startup nodes is available|Failed to refresh slots cache/.test(
      message,
    )
  );
}

/** Every Redis connection of a worker process, watched together. */
export interface RedisSupervisor {
  /** A connection for BullMQ workers and blocking calls: commands wait through an outage. */
  workerConnection(): RedisConnection;
  /** Runs `listener` once each time Redis is reachable again, on every connection, after an outage. */
  onReconnect(listener: () => void): void;
  /** Told about an error of a Queue or Worker: connection errors are already reported per attempt. */
  reportError(error: Error, where: string): void;
  /** Whether every connection made here is ready (false while any is reconnecting). */
  allReady(): boolean;
  /** Disconnects every connection made here. */
  disconnectAll(): void;
}

/**
 * Makes a worker's Redis connections and reports an outage once, however many connections see it:
 * every connection shares one retry strategy (backoff from 250 ms to 5 s), which logs one warning
 * per reconnect attempt number, and every connection has an error listener, so ioredis never
 * prints "Unhandled error event" stack traces. When Redis answers again it logs one line and calls
 * the reconnect listeners (e.g. to re-create job schedulers a restart without data lost). BullMQ's
 * duplicates of these connections share the retry strategy; their errors reach `reportError`
 * through the Worker's error listener.
 */
export function createRedisSupervisor(target: RedisTarget, logger: Logger): RedisSupervisor {
  const connections: RedisConnection[] = [];
  const listeners: Array<() => void> = [];
  let lastError = 'connection lost';
  let outageSince: number | undefined;
  let attemptsLogged = 0;

  const retryStrategy = (attempt: number): number => {
    const delayMs = reconnectDelay(attempt);
    outageSince ??= Date.now();
    if (attempt > attemptsLogged) {
      attemptsLogged = attempt;
      logger.warn(
        { attempt, delayMs, err: lastError },
        `Redis unreachable (${lastError}); reconnect attempt ${attempt} in ${delayMs} ms`,
      );
    }
    return delayMs;
  };
  const onReady = () => {
    // The outage ends when every connection is back (each retries on its own timer).
    if (outageSince === undefined || !connections.every((c) => c.status === 'ready')) return;
    const seconds = Math.round((Date.now() - outageSince) / 100) / 10;
    logger.info(
      { outageSeconds: seconds, attempts: attemptsLogged },
      `Redis reachable again after ${seconds} s`,
    );
    outageSince = undefined;
    attemptsLogged = 0;
    lastError = 'connection lost';
    for (const listener of listeners) listener();
  };
  const onError = (error: Error) => {
    lastError = error.message;
    if (!isConnectionError(error)) logger.warn({ err: error.message }, 'Redis error');
  };

  return {
    workerConnection() {
      const redis = createRedisConnection(target, { maxRetriesPerRequest: null, retryStrategy });
      redis.on('error', onError);
      redis.on('ready', onReady);
      connections.push(redis);
      return redis;
    },
    onReconnect(listener) {
      listeners.push(listener);
    },
    reportError(error, where) {
      if (isConnectionError(error)) {
        lastError = error.message;
        logger.debug({ err: error.message, where }, 'Redis connection error');
        return;
      }
      logger.warn({ err: error.message, where }, `${where}: ${error.message}`);
    },
    allReady: () => connections.every((c) => c.status === 'ready'),
    disconnectAll() {
      for (const connection of connections) connection.disconnect();
    },
  };
}
