import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { createPublicKey, generateKeyPairSync, JsonWebKey, KeyObject, randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/config';
import { decrypt, encrypt } from '../crypto/crypto';
import { unscoped } from '../database/scoped';

const GLOBAL = 'the signing keys belong to no organization';

interface SigningKey {
  kid: string;
  alg: 'ES256';
  publicKey: KeyObject;
  publicJwk: Record<string, unknown>;
  privatePem?: string;
}

const KEY_LOCK = 7_345_001;

/**
 * The JWT signing keys, kept in the database (private halves encrypted with APP_SECRET) so that a
 * restart or a second API instance signs and verifies with the same keys. The first process to
 * start makes the first key.
 */
@Injectable()
export class KeysService implements OnModuleInit {
  private readonly logger = new Logger(KeysService.name);
  private keys = new Map<string, SigningKey>();
  private current?: SigningKey;
  private lastReload = 0;

  constructor(
    private readonly ds: DataSource,
    private readonly config: AppConfig,
  ) {}

  async onModuleInit() {
    await this.load();
    if (!this.current) await this.createFirstKey();
  }

  private async load() {
    const rows = await unscoped(this.ds, GLOBAL).query<{ kid: string; public_jwk: JsonWebKey; private_key_enc: string; retired_at: Date | null }[]>(
      `SELECT kid, alg, public_jwk, private_key_enc, retired_at FROM signing_keys ORDER BY created_at DESC`,
    );
    const keys = new Map<string, SigningKey>();
    let current: SigningKey | undefined;
    for (const r of rows) {
      const key: SigningKey = {
        kid: r.kid,
        alg: 'ES256',
        publicJwk: r.public_jwk,
        publicKey: createPublicKey({ key: r.public_jwk, format: 'jwk' }),
      };
      if (!r.retired_at && !current) {
        key.privatePem = decrypt(this.config.APP_SECRET, r.private_key_enc);
        current = key;
      }
      keys.set(key.kid, key);
    }
    this.keys = keys;
    this.current = current;
    this.lastReload = Date.now();
  }

  private async createFirstKey() {
    await this.ds.transaction(async (m) => {
      await m.query(`SELECT pg_advisory_xact_lock($1)`, [KEY_LOCK]);
      const [{ n }] = await unscoped(m, GLOBAL).query<{ n: number }[]>(`SELECT count(*)::int AS n FROM signing_keys WHERE retired_at IS NULL`);
      if (n > 0) return;
      const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const kid = randomBytes(12).toString('base64url');
      const jwk = { ...publicKey.export({ format: 'jwk' }), kid, alg: 'ES256', use: 'sig' };
      const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
      await unscoped(m, GLOBAL).query(`INSERT INTO signing_keys (kid, alg, public_jwk, private_key_enc) VALUES ($1, 'ES256', $2, $3)`, [kid, jwk, encrypt(this.config.APP_SECRET, pem)]);
      this.logger.log({ kid }, 'created JWT signing key');
    });
    await this.load();
  }

  signingKey(): { kid: string; privatePem: string } {
    if (!this.current?.privatePem) throw new Error('no signing key loaded');
    return { kid: this.current.kid, privatePem: this.current.privatePem };
  }

  /** The public key for a kid; reloads from the database (at most once a second) when unknown. */
  async publicKey(kid: string): Promise<KeyObject | null> {
    const known = this.keys.get(kid);
    if (known) return known.publicKey;
    if (Date.now() - this.lastReload > 1000) {
      await this.load();
      return this.keys.get(kid)?.publicKey ?? null;
    }
    return null;
  }

  jwks(): { keys: Record<string, unknown>[] } {
    return { keys: [...this.keys.values()].map((k) => k.publicJwk) };
  }
}
