/**
 * Reads a dotenv file (`KEY=value` lines, as `.env.example` shows) into the process environment with
 * Node's own parser: variables already set win, even blank ones. A missing file is fine. Answers one
 * line describing a file that exists but cannot be read, else undefined.
 */
export function loadDotEnv(file = '.env'): string | undefined {
  try {
    process.loadEnvFile(file);
    return undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return `${file}: cannot be read (${(error as Error).message.split('\n')[0]})`;
  }
}
