import { createHash, createHmac } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig, issuerUrl } from '../../core/config/config';
import { decrypt, encrypt } from '../../core/crypto/crypto';
import { scoped } from '../../core/database/scoped';
import { rowsOf } from '../../core/database/sql';
import { type CertificateFactsRow } from './certificates.store';
import { ApiError } from '../../core/http/api-error';
import { decodeId, encodeId } from '../../core/ids/ids';
import { CREDENTIALS_V2, newEd25519Key, OPEN_BADGES_V3, signDataIntegrity } from './data-integrity';
import { encodeStatusList, STATUS_LIST_SIZE, statusListPosition } from './status-list';
import type { DidDocument, OpenBadgeCredential, RotatedKey, StatusListCredential } from './certificate-schemas';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SEAL_PURPOSE = 'issuer-key';

/** What a certificate's credential, PDF and verification page are made from (one statement). */
/** A certificate with what its documents show (the row of certificates.store.ts). */
export type CertificateFacts = CertificateFactsRow;

export type CertificateState = 'active' | 'expired' | 'revoked';

/** revoked (its completion was removed) before expired (its validity ran out) before active. */
export function certificateState(c: Pick<CertificateFacts, 'expiresAt' | 'revokedAt'>, now = new Date()): CertificateState {
  if (c.revokedAt) return 'revoked';
  if (c.expiresAt && c.expiresAt <= now) return 'expired';
  return 'active';
}

/**
 * The organization as an Open Badges 3.0 issuer (CONVENTIONS §22; docs/decisions/certificates.md):
 * a `did:web` identifier on this server (`did:web:<host>:orgs:<organization id>`, its DID document
 * at /orgs/{organization id}/did.json), Ed25519 keys made on first use and sealed at rest
 * (AES-256-GCM under APP_SECRET), rotatable, and a Bitstring Status List per 131,072 certificates.
 * The DID and every URL in a credential come from the configured issuer URL (PUBLIC_URL), never from
 * a request's Host, so a credential is the same whoever asks.
 */
@Injectable()
export class CredentialsService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly config: AppConfig,
  ) {}

  base(): string {
    return issuerUrl(this.config).replace(/\/+$/, '');
  }

  /** did:web of an organization (its public id, as create-org prints it): host (port percent-encoded) and path segments after it. */
  did(organizationId: string): string {
    const u = new URL(this.base());
    const path = u.pathname.split('/').filter(Boolean).map(encodeURIComponent);
    return ['did', 'web', encodeURIComponent(u.host), ...path, 'orgs', encodeId('organization', organizationId)].join(':');
  }

  statusListUrl(organizationId: string, list: number): string {
    return `${this.base()}/orgs/${encodeId('organization', organizationId)}/status-lists/${list}`;
  }

  /** The organization of a public id in a public URL (null: no such organization can exist). */
  private organizationOf(publicId: string): string | null {
    const uuid = decodeId('organization', publicId);
    return uuid && UUID.test(uuid) ? uuid : null;
  }

  /** The organization's active key, made (with its issuer row) on first use; two callers at once end with one key. */
  private async activeKey(organizationId: string): Promise<{ keyNumber: number; privateKeyPem: string; createdAt: Date }> {
    const db = scoped(this.ds, organizationId);
    for (let attempt = 0; attempt < 3; attempt++) {
      const rows: { key_number: number; private_key_sealed: string; created_at: Date }[] = await db.query(
        `SELECT key_number, private_key_sealed, created_at FROM issuer_keys WHERE organization_id = $org AND retired_at IS NULL`,
      );
      if (rows.length) return { keyNumber: rows[0].key_number, privateKeyPem: decrypt(this.sealKey(), rows[0].private_key_sealed), createdAt: rows[0].created_at };
      await db.query(`INSERT INTO credential_issuers (organization_id) VALUES ($org) ON CONFLICT DO NOTHING`);
      const key = newEd25519Key();
      // the partial unique index (one active key) settles a race: the loser's row is not inserted
      await db.query(
        `INSERT INTO issuer_keys (organization_id, key_number, public_key_multibase, private_key_sealed)
         SELECT $org, COALESCE(max(key_number), 0) + 1, $1, $2 FROM issuer_keys WHERE organization_id = $org
         ON CONFLICT DO NOTHING`,
        [key.publicKeyMultibase, encrypt(this.sealKey(), key.privateKeyPem)],
      );
    }
    throw new Error('could not make an issuer key');
  }

  private sealKey(): string {
    return `${SEAL_PURPOSE}:${this.config.APP_SECRET}`;
  }

  /** Retires the active key (it stays in the DID document: credentials it signed still verify) and makes a new one. */
  async rotateKey(organizationId: string): Promise<RotatedKey> {
    const old = await this.activeKey(organizationId);
    const key = newEd25519Key();
    const made = await this.ds.transaction(async (m) => {
      const db = scoped(m, organizationId);
      const retired = rowsOf<{ key_number: number }>(
        await db.query<unknown>(`UPDATE issuer_keys SET retired_at = now() WHERE organization_id = $org AND retired_at IS NULL AND key_number = $1 RETURNING key_number`, [old.keyNumber]),
      );
      if (!retired.length) throw new ApiError(409, 'The issuer key was rotated at the same time; try again.');
      const rows: { key_number: number }[] = await db.query(
        `INSERT INTO issuer_keys (organization_id, key_number, public_key_multibase, private_key_sealed)
         SELECT $org, max(key_number) + 1, $1, $2 FROM issuer_keys WHERE organization_id = $org RETURNING key_number`,
        [key.publicKeyMultibase, encrypt(this.sealKey(), key.privateKeyPem)],
      );
      return rows[0].key_number;
    });
    const did = this.did(organizationId);
    return { key_id: `${did}#key-${made}`, retired_key_id: `${did}#key-${old.keyNumber}` };
  }

  /** The DID document of an organization that has an issuer (404 otherwise, also for an id that is not a uuid). */
  async didDocument(publicId: string): Promise<DidDocument> {
    const organizationId = this.organizationOf(publicId);
    if (!organizationId) throw new ApiError(404, 'Not found.');
    const keys: { key_number: number; public_key_multibase: string; retired_at: Date | null }[] = await scoped(this.ds, organizationId).query(
      `SELECT key_number, public_key_multibase, retired_at FROM issuer_keys WHERE organization_id = $org ORDER BY key_number`,
    );
    if (!keys.length) throw new ApiError(404, 'Not found.');
    const did = this.did(organizationId);
    const ids = keys.map((k) => `${did}#key-${k.key_number}`);
    return {
      '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/multikey/v1'],
      id: did,
      verificationMethod: keys.map((k, i) => ({ id: ids[i], type: 'Multikey', controller: did, publicKeyMultibase: k.public_key_multibase })),
      assertionMethod: ids,
    };
  }

  /** The certificate's status-list index, given on first use (one statement; a concurrent caller waits and reads it). */
  private async statusIndex(c: CertificateFacts): Promise<number> {
    if (c.statusIndex !== null) return c.statusIndex;
    const db = scoped(this.ds, c.organizationId);
    await db.query(`INSERT INTO credential_issuers (organization_id) VALUES ($org) ON CONFLICT DO NOTHING`);
    const rows = rowsOf<{ status_index: number }>(
      await db.query<unknown>(
        `WITH c AS (SELECT id FROM certificates WHERE id = $1 AND organization_id = $org AND status_index IS NULL FOR UPDATE),
            n AS (UPDATE credential_issuers SET next_status_index = next_status_index + 1
                   WHERE organization_id = $org AND EXISTS (SELECT 1 FROM c) RETURNING next_status_index - 1 AS idx)
       UPDATE certificates SET status_index = n.idx FROM n WHERE certificates.id = $1 AND certificates.organization_id = $org
       RETURNING status_index`,
        [c.id],
      ),
    );
    if (rows.length) return rows[0].status_index;
    const again: { status_index: number }[] = await db.query(`SELECT status_index FROM certificates WHERE id = $1 AND organization_id = $org`, [c.id]);
    return again[0].status_index;
  }

  /** A salted SHA-256 of the learner's email (Open Badges IdentityObject): the same for the same certificate. */
  private identity(c: CertificateFacts) {
    const salt = createHmac('sha256', this.config.APP_SECRET).update(`credential-salt:${c.id}`).digest('hex').slice(0, 16);
    const identityHash =
      'sha256$' +
      createHash('sha256')
        .update(c.learnerEmail.toLowerCase() + salt)
        .digest('hex');
    return { type: 'IdentityObject', identityHash, identityType: 'emailAddress', hashed: true, salt };
  }

  /**
   * The OpenBadgeCredential of a certificate, signed with the organization's active key. The same
   * certificate, key and data give the same bytes (Ed25519 signatures are deterministic, and the
   * proof's `created` is the later of the issue date and the key's creation), so a credential
   * fetched twice is one credential.
   */
  async credential(c: CertificateFacts): Promise<OpenBadgeCredential> {
    const [key, index] = await Promise.all([this.activeKey(c.organizationId), this.statusIndex(c)]);
    const did = this.did(c.organizationId);
    const base = this.base();
    const { list } = statusListPosition(index);
    const listUrl = this.statusListUrl(c.organizationId, list);
    const achievementId = `${base}/orgs/${encodeId('organization', c.organizationId)}/achievements/${encodeId('course', c.courseId)}`;
    const unsigned: Omit<OpenBadgeCredential, 'proof'> = {
      '@context': [CREDENTIALS_V2, OPEN_BADGES_V3],
      id: `${base}/verify/${c.code}`,
      type: ['VerifiableCredential', 'OpenBadgeCredential'],
      name: c.courseTitle,
      issuer: { id: did, type: ['Profile'], name: c.organizationName },
      validFrom: c.issuedAt.toISOString(),
      ...(c.expiresAt ? { validUntil: c.expiresAt.toISOString() } : {}),
      credentialSubject: {
        type: ['AchievementSubject'],
        ...(c.learnerName ? { name: c.learnerName } : {}),
        identifier: [this.identity(c)],
        achievement: {
          id: achievementId,
          type: ['Achievement'],
          achievementType: 'Certificate',
          name: c.courseTitle,
          description: c.courseDescription || `Completion of the course "${c.courseTitle}".`,
          criteria: { narrative: `Complete every required lesson of the course "${c.courseTitle}".` },
        },
      },
      credentialStatus: {
        id: `${listUrl}#${index % STATUS_LIST_SIZE}`,
        type: 'BitstringStatusListEntry',
        statusPurpose: 'revocation',
        statusListIndex: String(index % STATUS_LIST_SIZE),
        statusListCredential: listUrl,
      },
    };
    const created = key.createdAt > c.issuedAt ? key.createdAt : c.issuedAt;
    return signDataIntegrity(unsigned, { verificationMethod: `${did}#key-${key.keyNumber}`, privateKeyPem: key.privateKeyPem, created });
  }

  /**
   * The status list credential `list` of an organization, signed now: a certificate's bit is set when
   * it is revoked (its completion removed) or expired. One statement over the
   * (organization_id, status_index) index. 404 for an organization without an issuer or a list
   * beyond the last index given.
   */
  async statusListCredential(publicId: string, listParam: string): Promise<StatusListCredential> {
    const organizationId = this.organizationOf(publicId);
    if (!organizationId || !/^\d{1,6}$/.test(listParam)) throw new ApiError(404, 'Not found.');
    const list = Number(listParam);
    const db = scoped(this.ds, organizationId);
    const issuer: { next_status_index: number }[] = await db.query(`SELECT next_status_index FROM credential_issuers WHERE organization_id = $org`);
    if (!issuer.length || list * STATUS_LIST_SIZE >= Math.max(issuer[0].next_status_index, 1)) throw new ApiError(404, 'Not found.');
    const rows: { status_index: number }[] = await db.query(
      `SELECT status_index FROM certificates
        WHERE organization_id = $org AND status_index >= $1 AND status_index < $2
          AND (revoked_at IS NOT NULL OR expires_at <= now())`,
      [list * STATUS_LIST_SIZE, (list + 1) * STATUS_LIST_SIZE],
    );
    const key = await this.activeKey(organizationId);
    const did = this.did(organizationId);
    const url = this.statusListUrl(organizationId, list);
    return signDataIntegrity(
      {
        '@context': [CREDENTIALS_V2],
        id: url,
        type: ['VerifiableCredential', 'BitstringStatusListCredential'],
        issuer: did,
        validFrom: new Date().toISOString(),
        credentialSubject: { id: `${url}#list`, type: 'BitstringStatusList', statusPurpose: 'revocation', encodedList: encodeStatusList(rows.map((r) => r.status_index - list * STATUS_LIST_SIZE)) },
      },
      { verificationMethod: `${did}#key-${key.keyNumber}`, privateKeyPem: key.privateKeyPem, created: new Date() },
    );
  }
}
