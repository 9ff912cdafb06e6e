import type { Command } from 'commander';
import type { CliContext } from '../context.ts';

/** Adds one command (with its subcommands) to the program. */
export type CommandRegistrar = (program: Command, context: CliContext) => void;
