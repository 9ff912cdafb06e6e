import { tmpdir } from 'node:os';
import { linesOf, spawnSourceCli } from '../../helpers/cli.ts';
import { type BadInputCase, commandCases, variableCases } from '../lib/badInputCases.ts';
import type { Scenario } from '../scenario.ts';

/**
 * Garbage in every configuration variable and bad arguments to every command (both enumerated from
 * the code, see lib/badInputCases.ts), each run as a real CLI process from source. A case passes
 * when the CLI exits 2 (the usage/configuration code of src/cli/exitCodes.ts and the README) with
 * exactly one line on stderr that names the variable or option, no stack trace, nothing on stdout,
 * and ends within 5 s of its start-up (measured with --version, which does no work).
 */

const PROMPT_MS = 5_000;
const CONCURRENCY = 3;
/** A stack frame or an error dumped with its class name (commander's own lines say "error: ..."). */
const STACK = /^\s+at .+|^\w*Error: /m;

interface Outcome {
  c: BadInputCase;
  code: number | null;
  stdout: string;
  stderr: string;
  hung: boolean;
  elapsedMs: number;
}

function run(c: BadInputCase, env: Record<string, string>, killAfterMs: number): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawnSourceCli(c.args, { env: { ...env, ...c.env }, cwd: tmpdir() });
    let stdout = '';
    let stderr = '';
    let hung = false;
    child.stdout?.on('data', (chunk) => {
      stdout += String(chunk);
    });
    child.stderr?.on('data', (chunk) => {
      stderr += String(chunk);
    });
    child.stdin?.end();
    const killer = setTimeout(() => {
      hung = true;
      child.kill('SIGKILL');
    }, killAfterMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve({ c, code, stdout, stderr, hung, elapsedMs: Date.now() - started });
    });
  });
}

/** Why an outcome breaks the promise, or undefined when it keeps it. */
function problemOf(o: Outcome): string | undefined {
  if (o.hung) return `still running after ${o.elapsedMs} ms (killed)`;
  const lines = linesOf(o.stderr);
  if (STACK.test(o.stderr) || STACK.test(o.stdout))
    return `stack trace, exit ${o.code}: ${lines.slice(0, 4).join(' / ').slice(0, 240)}`;
  if (o.code !== 2) return `exit ${o.code}: ${lines[0] ?? ''}`;
  if (lines.length !== o.c.lines)
    return `${lines.length} lines on stderr (expected ${o.c.lines}): ${lines.slice(0, 3).join(' / ')}`;
  if (o.stdout.trim() !== '') return `stdout not empty: ${o.stdout.trim().slice(0, 100)}`;
  if (!lines.some((line) => o.c.names.some((name) => line.includes(name))))
    return `no line names ${o.c.names.join(' or ')}: ${lines.join(' / ')}`;
  return undefined;
}

/** Runs `cases` with at most CONCURRENCY processes at a time. */
async function runAll(cases: BadInputCase[], env: Record<string, string>, killAfterMs: number) {
  const outcomes: Outcome[] = [];
  let next = 0;
  const lane = async () => {
    while (next < cases.length) {
      const c = cases[next++] as BadInputCase;
      outcomes.push(await run(c, env, killAfterMs));
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  return outcomes;
}

export const badInput: Scenario = {
  id: 6,
  title: 'bad input: garbage in every variable, bad arguments to every command',
  run: async (ctx) => {
    // Valid URLs of the private services, so a case fails only on the garbage it is about.
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      DATABASE_URL: await ctx.newDatabase('badinput'),
      REDIS_URL: ctx.services.redisUrl,
      FULFILLMENT_QUEUE_PREFIX: ctx.prefix('badinput'),
      HTTP_PORT: '0',
    };
    const variables = variableCases(env, ctx.short ? 1 : 3);
    const commands = commandCases(ctx.short ? 1 : 4);
    const cases = [...variables.cases, ...commands];

    // Start-up under the same load as the cases (CONCURRENCY at once, twice, the slowest counts):
    // the 5 s are the command's, not the loading of tsx and every module on this shared machine.
    const version: BadInputCase = {
      kind: 'command',
      subject: '--version',
      what: '',
      args: ['--version'],
      env: {},
      names: [],
      lines: 0,
    };
    const samples = await runAll(Array(2 * CONCURRENCY).fill(version), env, 60_000);
    const startupMs = Math.max(...samples.map((o) => o.elapsedMs));
    ctx.log(`${cases.length} cases; CLI start-up ${startupMs} ms`);
    const first = await runAll(cases, env, startupMs + PROMPT_MS);
    // A case killed at the deadline runs once more, alone, against a start-up measured just before:
    // on this shared machine a burst of load can slow a start-up past the deadline, while a command
    // that really hangs hangs again.
    const outcomes: Outcome[] = [];
    let rerun = 0;
    for (const o of first) {
      if (!o.hung) {
        outcomes.push(o);
        continue;
      }
      rerun += 1;
      const startup = (await run(version, env, 60_000)).elapsedMs;
      outcomes.push(await run(o.c, env, startup + PROMPT_MS));
    }

    const v = ctx.verdict;
    v.figure(
      'variables tried',
      `${new Set(variables.cases.map((c) => c.subject)).size} of ${variables.variables.length}`,
    );
    v.figure('variables that accept any value', variables.acceptsAnything.join(', ') || 'none');
    v.figure('values tried', variables.cases.length);
    v.figure('commands tried', new Set(commands.map((c) => c.subject)).size);
    v.figure('cases', outcomes.length);
    v.figure('cases re-run alone after passing the deadline under load', rerun);
    const failures = outcomes.map((o) => ({ o, problem: problemOf(o) })).filter((f) => f.problem);
    v.figure('passes', outcomes.length - failures.length);
    v.expectEqual('stack traces seen', outcomes.filter((o) => STACK.test(o.stderr + o.stdout)).length, 0);
    v.expectEqual('hangs', outcomes.filter((o) => o.hung).length, 0);
    v.check(
      'every variable of the schema was tried or accepts anything',
      variables.variables.every(
        (name) => variables.acceptsAnything.includes(name) || variables.cases.some((c) => c.subject === name),
      ),
    );
    for (const { o, problem } of failures)
      v.check(
        `${o.c.subject}: ${o.c.what} -> exit 2, one line naming it`,
        false,
        `${problem} [args: ${o.c.args.join(' ')}]`,
      );
  },
};
