import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import type { RequestOptions, TestApp } from './app';

/** One organization of the two-organization world, with its credentials for each interface. */
export interface OrgSide {
  org: CreatedOrg;
  /** a /v2 access token of the org's bootstrap client (narrowed to the scopes asked for, if any) */
  token: string;
  /** /v1 credentials: the org's API key (HTTP Basic) */
  v1: RequestOptions;
  /** /v2 credentials: the bearer token */
  v2: RequestOptions;
}

export interface TwoOrgs {
  a: CreatedOrg;
  b: CreatedOrg;
  tokenA: string;
  tokenB: string;
  A: OrgSide;
  B: OrgSide;
}

/**
 * The two-organization world most isolation tests start from: org A (the one under test) and org B
 * (the other tenant, whose credentials must never reach A's data), each with a real access token.
 */
export async function twoOrgs(t: TestApp, opts: { scopes?: string[] } = {}): Promise<TwoOrgs> {
  const a = await t.newOrg();
  const b = await t.newOrg();
  const tokenA = await t.tokenFor(a, opts.scopes);
  const tokenB = await t.tokenFor(b, opts.scopes);
  const side = (org: CreatedOrg, token: string): OrgSide => ({ org, token, v1: { basic: org.api_key }, v2: { token } });
  return { a, b, tokenA, tokenB, A: side(a, tokenA), B: side(b, tokenB) };
}
