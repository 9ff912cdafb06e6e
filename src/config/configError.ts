/**
 * The configuration is invalid. `problems` holds one line per problem, each naming the variable,
 * never echoing a secret's value; the CLI prints them and exits with the bad-usage code.
 */
export class ConfigError extends Error {
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(
      `Invalid configuration (${problems.length} problem${problems.length === 1 ? '' : 's'}); fix the environment and retry:\n${problems.join('\n')}`,
    );
    this.name = 'ConfigError';
    this.problems = Object.freeze([...problems]);
  }
}
