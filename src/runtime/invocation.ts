/**
 * How printed hints name this CLI, so that a command copied from the output runs as printed. After
 * `npm ci` a checkout has no `fulfillment-sync` on PATH (npm links a package's bins for its
 * dependents, not for itself): a bare `fulfillment-sync ...` is "command not found". `npx
 * fulfillment-sync` runs the checkout's own bin (npm links the checkout into its npx cache on the
 * first call, without the registry; `prepare` then finds dist/ already built), and, where the
 * package is installed, the installed bin.
 */
export const CLI = 'npx fulfillment-sync';

/** A command line as printed: `npx fulfillment-sync <words>`. */
export function cliCommand(words: string): string {
  return `${CLI} ${words}`;
}
