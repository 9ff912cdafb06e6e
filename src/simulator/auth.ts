import { hash32 } from './rng.ts';

const TOKEN_LIFETIME_S = 3600;

/** Bearer tokens: configured static ones, and short-lived ones issued to client credentials. */
export class TokenStore {
  private readonly issued = new Map<string, number>();
  private counter = 0;

  constructor(
    private readonly staticTokens: readonly string[],
    private readonly seed: number,
    private readonly credentials: { clientId: string; clientSecret: string } | undefined,
    private readonly realNow: () => number = Date.now,
  ) {}

  /** Whether an Authorization header carries a valid bearer token. */
  authorized(header: string | undefined): boolean {
    const m = /^Bearer\s+(\S+)$/i.exec(header ?? '');
    if (!m) return false;
    const token = m[1] as string;
    if (this.staticTokens.includes(token)) return true;
    const expires = this.issued.get(token);
    return expires !== undefined && expires > this.realNow();
  }

  /** OAuth2 client-credentials grant; undefined when the credentials are wrong. Expiry is real time. */
  issue(
    grantType: string | undefined,
    clientId: string | undefined,
    clientSecret: string | undefined,
  ): { access_token: string; token_type: string; expires_in: number } | undefined {
    if (!this.credentials || grantType !== 'client_credentials') return undefined;
    if (clientId !== this.credentials.clientId || clientSecret !== this.credentials.clientSecret)
      return undefined;
    this.counter += 1;
    const token = `sim_${hash32(this.seed, 'token', this.counter).toString(16)}${hash32(this.counter, 'token', this.seed).toString(16)}`;
    this.issued.set(token, this.realNow() + TOKEN_LIFETIME_S * 1000);
    return { access_token: token, token_type: 'Bearer', expires_in: TOKEN_LIFETIME_S };
  }
}
