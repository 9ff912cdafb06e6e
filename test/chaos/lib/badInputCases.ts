import type { Argument, Command, Option } from 'commander';
import { createCliContext } from '../../../src/cli/context.ts';
import { createProgram } from '../../../src/cli/program.ts';
import { ConfigError } from '../../../src/config/configError.ts';
import { CONFIG_ENV_VARS } from '../../../src/config/envSchema.ts';
import { loadConfig } from '../../../src/config/loadConfig.ts';

/**
 * The cases of the bad-input scenario, enumerated from the code rather than listed by hand: the
 * variables from the config schema (src/config/envSchema.ts), the commands from the commander
 * program (src/cli/program.ts). Which garbage a variable or option value gets is decided by asking
 * the code's own validator which candidates it refuses, so a case exists exactly where the
 * software promises to refuse: the CLI must then refuse it as promised (exit 2, one line, no stack).
 */

/** One CLI run that must fail with a usage/config error naming `names` (any one of them). */
export interface BadInputCase {
  kind: 'variable' | 'command';
  /** What the case is about: a variable, or a command path (`webhooks add`). */
  subject: string;
  /** What is wrong, for the failure line. */
  what: string;
  args: string[];
  env: Record<string, string>;
  /** A stderr line must contain one of these. */
  names: string[];
  /**
   * Lines expected on stderr: one, or for a variable one per problem the configuration finds
   * (README: "one line per problem"), e.g. a token-URL trio variable alone also names the other two.
   */
  lines: number;
}

/** Garbage a variable may be given: what an operator can plausibly get wrong. */
const VARIABLE_GARBAGE: readonly string[] = [
  'abc', // a word where a number, URL, zone or JSON is expected
  '-5', // negative
  '0', // zero
  '99999999999999999999', // huge
  '1.5', // a fraction where a whole number is expected
  ' 12 abc ', // whitespace around junk
  'http//missing-colon', // a malformed URL
  'ftp://example.com/x', // a URL of the wrong kind
  '{not json', // malformed JSON
  '{"shipments": {"lookbackMinutes": 100000000}}', // JSON with an out-of-range field
  '{"shipments": {"windowSize": 0}}', // JSON with a zero window
  '{"no_such_stream": {}}', // JSON naming an unknown stream
  '{"shipments": {"noSuchField": 1}}', // JSON with an unknown field
  '[1, 2]', // JSON of the wrong shape
  'Mars/Olympus_Mons', // an unknown time zone
  'perhaps', // not a boolean or enum word
  '2026-13-45', // an impossible date
  'bad role; drop table x', // not a role name
  'x', // any one value, for variables whose problem is what they need alongside
];

/**
 * The kind of problem the configuration finds with `variable` set to `value` (its problem lines
 * with quoted values and numbers blanked), or undefined when it accepts the value. Any other
 * throw counts as a refusal too: the CLI must still turn it into one line.
 */
function refusal(
  base: Record<string, string>,
  variable: string,
  value: string,
): { problem: string; lines: number } | undefined {
  try {
    loadConfig({ ...base, [variable]: value });
    return undefined;
  } catch (error) {
    const problems = error instanceof ConfigError ? error.problems : [String(error)];
    const problem = problems
      .join('\n')
      .replace(/"[^"]*"/g, '""')
      .replace(/got .*$/gm, 'got')
      .replace(/\d+/g, 'N');
    return { problem, lines: problems.length };
  }
}

/**
 * Up to `limit` of the refused values: one per distinct kind of problem first (so malformed JSON,
 * an out-of-range field and an unknown stream are all tried), then others, in candidate order.
 */
function pickRefused<R extends { value: string; problem: string }>(refused: R[], limit: number): R[] {
  const kinds = new Set<string>();
  const first: R[] = [];
  const rest: R[] = [];
  for (const r of refused) {
    if (kinds.has(r.problem)) rest.push(r);
    else {
      kinds.add(r.problem);
      first.push(r);
    }
  }
  return [...first, ...rest].slice(0, limit);
}

/** Per variable of the config schema, garbage values the configuration refuses. */
export function variableCases(
  base: Record<string, string>,
  perVariable: number,
): { cases: BadInputCase[]; variables: string[]; acceptsAnything: string[] } {
  const cases: BadInputCase[] = [];
  const acceptsAnything: string[] = [];
  for (const variable of CONFIG_ENV_VARS) {
    const refused = VARIABLE_GARBAGE.flatMap((value) => {
      const r = refusal(base, variable, value);
      return r ? [{ value, problem: r.problem, lines: r.lines }] : [];
    });
    if (refused.length === 0) acceptsAnything.push(variable);
    for (const { value, lines } of pickRefused(refused, perVariable))
      cases.push({
        kind: 'variable',
        subject: variable,
        what: `${variable}=${JSON.stringify(value)}`,
        args: ['config'],
        env: { [variable]: value },
        names: [variable],
        lines,
      });
  }
  return { cases, variables: [...CONFIG_ENV_VARS], acceptsAnything };
}

/** Every command of the program, depth first, with its path (`webhooks add`). */
export function everyCommand(): { path: string[]; command: Command }[] {
  // Building the program reads no configuration (commands validate it in a preAction hook).
  const program = createProgram(createCliContext({ env: {} }));
  const out: { path: string[]; command: Command }[] = [];
  const walk = (command: Command, path: string[]) => {
    for (const sub of command.commands) {
      if (sub.name() === 'help') continue;
      out.push({ path: [...path, sub.name()], command: sub });
      walk(sub, [...path, sub.name()]);
    }
  };
  walk(program, []);
  return out;
}

const GARBAGE_VALUES = ['garbage!', '-1', '0', '2026-99-99'];

/** Whether a custom parser (of an option or argument) refuses `value`. */
function parserRefuses(parse: ((value: string, previous: unknown) => unknown) | undefined, value: string) {
  if (!parse) return false;
  try {
    parse(value, undefined);
    return false;
  } catch {
    return true;
  }
}

/** Placeholders for a command's required arguments, so a case fails only on what it is about. */
function placeholders(command: Command): string[] {
  return command.registeredArguments.filter((a) => a.required).map(() => '1');
}

/** Placeholders for its mandatory options (commander checks them before unknown options). */
function mandatoryPlaceholders(command: Command, except?: Option): string[] {
  return command.options.filter((o) => o.mandatory && o !== except).flatMap((o) => [longFlag(o), '1']);
}

const longFlag = (option: Option) => option.long ?? option.short ?? option.flags;
const argParser = (a: Argument) =>
  (a as unknown as { parseArg?: (value: string, previous: unknown) => unknown }).parseArg;

/**
 * Per command: an unknown option; each required argument left out (with the others given); the
 * mandatory options left out; each value-taking option without its value; and each value the
 * option's or argument's own parser or choices refuse. A command group also gets an unknown
 * subcommand and none at all. At most `perCommand` cases per command, in that order.
 */
export function commandCases(perCommand: number): BadInputCase[] {
  const cases: BadInputCase[] = [];
  for (const { path, command } of everyCommand()) {
    const subject = path.join(' ');
    const own: BadInputCase[] = [];
    const add = (what: string, args: string[], names: string[]) =>
      own.push({ kind: 'command', subject, what, args: [...path, ...args], env: {}, names, lines: 1 });
    const args0 = placeholders(command);
    const required = [...args0, ...mandatoryPlaceholders(command)];
    if (command.commands.length > 0) {
      add('an unknown subcommand', ['no-such-subcommand'], ['no-such-subcommand']);
      add('no subcommand', [], [command.commands[0]?.name() ?? subject]);
    }
    add('an unknown option', [...required, '--no-such-option'], ['--no-such-option']);
    command.registeredArguments.forEach((argument, i) => {
      if (!argument.required) return;
      add(
        `argument <${argument.name()}> missing`,
        [...args0.slice(0, i), ...mandatoryPlaceholders(command)],
        [argument.name()],
      );
      for (const value of GARBAGE_VALUES)
        if (parserRefuses(argParser(argument), value)) {
          const args = [...required];
          args[i] = value;
          add(`argument <${argument.name()}> = ${JSON.stringify(value)}`, args, [argument.name(), value]);
          break;
        }
    });
    const mandatory = command.options.filter((o) => o.mandatory);
    if (mandatory.length > 0)
      add(
        `mandatory option${mandatory.length > 1 ? 's' : ''} left out`,
        args0,
        mandatory.map((o) => longFlag(o)),
      );
    const valueOptions = command.options.filter((o) => o.required);
    const othersThan = (option: Option) => [...args0, ...mandatoryPlaceholders(command, option)];
    // Values the option's own choices or parser refuse first: they are rarer than a missing value.
    for (const option of valueOptions) {
      const flag = longFlag(option);
      const refused = option.argChoices
        ? ['no-such-choice']
        : GARBAGE_VALUES.filter((v) => parserRefuses(option.parseArg, v)).slice(0, 1);
      for (const value of refused)
        add(`${flag} ${JSON.stringify(value)}`, [...othersThan(option), flag, value], [flag]);
    }
    for (const option of valueOptions) {
      const flag = longFlag(option);
      add(`${flag} without its value`, [...othersThan(option), flag], [flag]);
    }
    cases.push(...own.slice(0, perCommand));
  }
  return cases;
}
