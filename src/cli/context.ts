import pino from 'pino';
import { loadConfig } from '../config/loadConfig.ts';
import type { Config } from '../config/types.ts';
import { createLogger, type Logger } from '../log/logger.ts';

/** What every command gets: the environment, the validated configuration, a logger, and its outputs. */
export interface CliContext {
  readonly env: NodeJS.ProcessEnv;
  /** The validated, frozen configuration; loaded once (the program validates it before any command runs). */
  config(): Config;
  /** The process logger at LOG_LEVEL, writing to stderr so stdout stays clean for command output. */
  logger(): Logger;
  /** Command output (stdout). */
  print(line: string): void;
  /** Diagnostics for the user (stderr). */
  printError(line: string): void;
  /** Input (stdin): JSON bodies of `api` writes. */
  readonly stdin: NodeJS.ReadableStream & { isTTY?: boolean };
}

/** Overrides for tests: another environment or captured outputs. */
export interface CliContextOptions {
  env?: NodeJS.ProcessEnv;
  print?: (line: string) => void;
  printError?: (line: string) => void;
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
}

/** Builds the context; the configuration and logger are created on first use and then reused. */
export function createCliContext(options: CliContextOptions = {}): CliContext {
  const env = options.env ?? process.env;
  let config: Config | undefined;
  let logger: Logger | undefined;
  const context: CliContext = {
    env,
    config() {
      config ??= loadConfig(env);
      return config;
    },
    logger() {
      logger ??= createLogger({ level: context.config().logLevel, destination: pino.destination(2) });
      return logger;
    },
    print: options.print ?? ((line) => process.stdout.write(`${line}\n`)),
    printError: options.printError ?? ((line) => process.stderr.write(`${line}\n`)),
    stdin: options.stdin ?? process.stdin,
  };
  return context;
}
