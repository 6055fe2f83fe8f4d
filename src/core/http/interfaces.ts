/** Which interface (and so which error envelope) a request path belongs to. */
export type ApiInterface = 'oauth' | 'register' | 'v1' | 'v2' | 'other';

export function interfaceOf(url: string): ApiInterface {
  const path = url.split('?', 1)[0];
  if (path.startsWith('/v2/auth/')) return 'oauth';
  if (path.startsWith('/v2/oauth/register')) return 'register';
  if (path.startsWith('/v1/')) return 'v1';
  if (path.startsWith('/v2/')) return 'v2';
  return 'other';
}
