import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { ValidationFailed } from '../../core/http/api-error';
import { isBlockedAddress } from '../../core/net/address-policy';
import { checkUrl, OutboundError } from '../../core/net/guarded-http';

const MAX_URL_LENGTH = 2048;

/**
 * Vet a content_url when the resource is created, so an obviously refused source is a 400 field
 * error at once instead of a FAILED import later: http(s) only, no credentials, no literal
 * loopback/private/link-local/metadata address (decimal and octal forms are normalised by the URL
 * parser), and no host name that resolves to one right now. An unresolvable name is accepted here
 * (DNS may be flaky); the worker checks every hop again at connect time, which is what closes DNS
 * rebinding.
 */
export async function vetContentUrl(field: string, raw: string, allowPrivate: boolean): Promise<string> {
  const fail = (message: string) => new ValidationFailed([{ field, pointer: `/${field}`, message }], 400);
  if (raw.length > MAX_URL_LENGTH) throw fail(`Ensure this field has no more than ${MAX_URL_LENGTH} characters.`);
  let url: URL;
  try {
    url = checkUrl(raw, allowPrivate);
  } catch (e) {
    if (e instanceof OutboundError) throw fail(e.reason === 'bad_url' ? `Enter a valid URL: ${e.message}.` : `This URL is not allowed: ${e.message}.`);
    throw e;
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && !isIP(host)) {
    let addresses: { address: string }[] = [];
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch {
      addresses = [];
    }
    const bad = addresses.find((a) => isBlockedAddress(a.address));
    if (bad) throw fail(`This URL is not allowed: ${host} resolves to a disallowed address.`);
  }
  return url.toString();
}

/** A default display name from a URL: its last path segment (decoded), else its host. */
export function nameFromUrl(raw: string): string {
  try {
    const url = new URL(raw);
    const last = url.pathname.split('/').filter(Boolean).pop();
    let name = last ?? '';
    try {
      name = decodeURIComponent(name);
    } catch {
      /* keep the raw segment */
    }
    name = name.replace(/[\u0000-\u001f\u007f]/g, '').trim();
    return (name || url.hostname || 'Untitled asset').slice(0, 255);
  } catch {
    return 'Untitled asset';
  }
}
