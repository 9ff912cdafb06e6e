/** The raw environment with blank values already turned into undefined; presence is what counts here. */
type PresentEnv = Readonly<Record<string, string | undefined>>;

const TRIO = ['FULFILLMENT_TOKEN_URL', 'FULFILLMENT_CLIENT_ID', 'FULFILLMENT_CLIENT_SECRET'] as const;

/**
 * Auth modes (docs/upstream-api.md, section 5): a static token, or the token-URL trio (all three or none),
 * never both; a real API URL needs one of them. Only names are reported, never values.
 */
export function authProblems(env: PresentEnv): string[] {
  const problems: string[] = [];
  const trioSet = TRIO.filter((name) => env[name] !== undefined);
  if (env.FULFILLMENT_API_TOKEN !== undefined && trioSet.length > 0) {
    problems.push(
      `FULFILLMENT_API_TOKEN: set either FULFILLMENT_API_TOKEN or ${TRIO.join('/')}, not both (also set: ${trioSet.join(', ')})`,
    );
  } else if (trioSet.length > 0 && trioSet.length < TRIO.length) {
    for (const missing of TRIO.filter((name) => env[name] === undefined)) {
      problems.push(
        `${missing}: required because ${trioSet.join(' and ')} ${trioSet.length === 1 ? 'is' : 'are'} set (the token-URL trio goes together)`,
      );
    }
  } else if (
    env.FULFILLMENT_API_URL !== undefined &&
    env.FULFILLMENT_API_TOKEN === undefined &&
    trioSet.length === 0
  ) {
    problems.push(
      `FULFILLMENT_API_TOKEN: required when FULFILLMENT_API_URL is set (or set ${TRIO.join(', ')} instead); unset FULFILLMENT_API_URL for sandbox mode`,
    );
  }
  return problems;
}

/** DASHBOARD_USER and DASHBOARD_PASSWORD come together or not at all. */
export function dashboardProblems(env: PresentEnv): string[] {
  if ((env.DASHBOARD_USER === undefined) === (env.DASHBOARD_PASSWORD === undefined)) return [];
  const missing = env.DASHBOARD_USER === undefined ? 'DASHBOARD_USER' : 'DASHBOARD_PASSWORD';
  const other = missing === 'DASHBOARD_USER' ? 'DASHBOARD_PASSWORD' : 'DASHBOARD_USER';
  return [`${missing}: required because ${other} is set (set both to protect the dashboard, or neither)`];
}

/** The masked reader and the full reader are two roles: one name for both would unmask the reader. */
export function readerRoleProblems(env: PresentEnv): string[] {
  const reader = env.FULFILLMENT_READER_ROLE?.trim();
  if (reader === undefined || reader !== env.FULFILLMENT_FULL_READER_ROLE?.trim()) return [];
  return [
    'FULFILLMENT_FULL_READER_ROLE: must name another role than FULFILLMENT_READER_ROLE (the reader reads personal data masked, the full reader in clear)',
  ];
}
