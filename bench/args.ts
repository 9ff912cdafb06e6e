/**
 * `--name N` from the command line, or `fallback` when absent; anything but a positive number is
 * one line on stderr and exit 2.
 */
export function positiveArg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isFinite(value) || value <= 0) {
    console.error(`--${name} needs a positive number`);
    process.exit(2);
  }
  return value;
}
