import { readFile } from 'node:fs/promises';
import { text } from 'node:stream/consumers';
import { UsageError } from '../usageError.ts';

/** Where a write's JSON body comes from. */
export interface BodySource {
  /** `--file <path>`; `-` means stdin. */
  file: string | undefined;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
}

/**
 * Reads and parses the JSON body of a write: from --file, else from stdin when it is not a terminal.
 * Anything missing or not JSON is a UsageError (one line, exit 2), before any network call.
 */
export async function readJsonBody(source: BodySource): Promise<unknown> {
  const fromStdin = source.file === undefined || source.file === '-';
  if (fromStdin && source.stdin.isTTY) {
    throw new UsageError('this operation needs a JSON body: pass --file <path>, or pipe the JSON to stdin.');
  }
  let raw: string;
  try {
    raw = fromStdin ? await text(source.stdin) : await readFile(source.file as string, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${source.file}: ${(error as Error).message}`);
  }
  const where = fromStdin ? 'stdin' : source.file;
  if (raw.trim() === '')
    throw new UsageError(`no JSON body on ${where}: pass --file <path> or pipe the JSON in.`);
  try {
    return JSON.parse(raw);
  } catch (error) {
    const reason = (error as Error).message.replace(/\s+/g, ' ');
    throw new UsageError(`the body on ${where} is not JSON: ${reason}`);
  }
}
