import { isatty } from 'node:tty';
import { format } from 'node:util';
import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import pretty from 'pino-pretty';
import { secretRedactPaths } from './redactPaths.ts';
import { scrubDeep, scrubSecrets } from './scrub.ts';

export type { Logger } from 'pino';

/** How to build the process logger. */
export interface CreateLoggerOptions {
  level: string;
  /** Human-readable output; default: when the destination is a TTY and CI is not set. */
  pretty?: boolean;
  /** Where lines go; default stdout. Tests pass an in-memory stream. */
  destination?: DestinationStream & { isTTY?: boolean; fd?: number };
  /** Bound into every line, e.g. `{ service: 'worker' }`. */
  base?: Record<string, unknown>;
}

/**
 * A pino logger: JSON lines by default, pretty in a terminal. Secrets never reach the output: known
 * secret keys are redacted at any depth pino can address, and every message and string field has URL
 * passwords, bearer tokens and webhook secrets scrubbed.
 */
export function createLogger(options: CreateLoggerOptions): Logger {
  const destination = options.destination ?? process.stdout;
  const usePretty = options.pretty ?? (isTty(destination) && !process.env.CI);
  const config: LoggerOptions = {
    level: options.level,
    base: { pid: process.pid, ...options.base },
    redact: { paths: secretRedactPaths(), censor: '***' },
    serializers: { err: serializeError, error: serializeError },
    formatters: {
      log: (object) => scrubDeep(object) as Record<string, unknown>,
    },
    hooks: {
      // Messages and printf-style arguments are scrubbed before pino formats them.
      logMethod(args, method) {
        method.apply(this, scrubArgs(args) as Parameters<typeof method>);
      },
    },
  };
  const stream = usePretty
    ? pretty({ destination, colorize: isTty(destination), sync: true, translateTime: 'SYS:HH:MM:ss.l' })
    : destination;
  return pino(config, stream);
}

/** pino's error serializer, with URL passwords and tokens scrubbed from message, stack and cause. */
function serializeError(err: unknown): unknown {
  if (!(err instanceof Error)) return scrubDeep(err);
  // The serialized error (and its causes) have custom prototypes: a JSON round trip makes plain objects
  // that scrubDeep walks. Errors are rare enough for the cost not to matter.
  return scrubDeep(JSON.parse(JSON.stringify(pino.stdSerializers.err(err))));
}

/**
 * Scrubs a log call's arguments. A printf-style message is formatted here first, because a secret
 * passed as `%s` only shows its `Bearer` or `://user:` context once it sits inside the message.
 */
function scrubArgs(args: unknown[]): unknown[] {
  const messageAt = typeof args[0] === 'string' ? 0 : 1;
  const message = args[messageAt];
  if (typeof message !== 'string' || args.length <= messageAt + 1) return args.map((arg) => scrubDeep(arg));
  const formatted = format(message, ...args.slice(messageAt + 1));
  return [...args.slice(0, messageAt).map((arg) => scrubDeep(arg)), scrubSecrets(formatted)];
}

function isTty(destination: { isTTY?: boolean; fd?: number }): boolean {
  if (destination.isTTY !== undefined) return destination.isTTY;
  return typeof destination.fd === 'number' && isatty(destination.fd);
}

/** Scrubs a single string the way log lines are scrubbed (for text printed outside the logger). */
export { scrubSecrets };
