/** Who is calling: bound to the request by the global guard, taken by services as their first argument. */
export interface Principal {
  organizationId: string;
  /** Internal id of the OAuth client, or null for an organization API key. */
  clientId: string | null;
  /** Token subject: the client_id for client credentials, the administrator for the code flow. */
  subject: string;
  scopes: ReadonlySet<string>;
  kind: 'token' | 'api_key';
  /** Refresh-token family the access token came from (code flow and refresh), if any. */
  familyId?: string;
}
