import { registerConfigCommand } from './config.ts';
import type { CommandRegistrar } from './registrar.ts';
import { registerSyncCommand } from './sync.ts';

export type { CommandRegistrar } from './registrar.ts';

/** Every command of the CLI, in help order. To add one: a file in this folder and one line here. */
export const commands: readonly CommandRegistrar[] = [registerConfigCommand, registerSyncCommand];
