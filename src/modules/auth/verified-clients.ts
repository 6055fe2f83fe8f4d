import { Injectable } from '@nestjs/common';
import { createHmac, randomBytes } from 'node:crypto';
import { AppConfig } from '../../core/config/config';
import { constantTimeEqual } from '../../core/crypto/crypto';
import { AuthInvalidationBus } from '../../core/auth/invalidation';
import { TtlCache } from '../../core/auth/ttl-cache';

/**
 * The token endpoint's clients whose secret was verified, by client_id: the client row and a keyed
 * hash (HMAC-SHA256 under a random per-process key) of the secret that was accepted, never the
 * secret. A request presenting the same client_id and secret within AUTH_CACHE_SECONDS is answered
 * from here; any other secret goes to the database. Dropped at once on any change of the client
 * (AuthService.forgetClient: this process directly, the others through AuthInvalidationBus).
 */
@Injectable()
export class VerifiedClients {
  private readonly entries = new TtlCache<{ mac: Buffer; uuid: string; client: unknown }>();
  /** uuid -> client_id of the entries above (to drop them by the uuid the writers know) */
  private readonly clientIds = new Map<string, string>();
  private readonly macKey = randomBytes(32);
  /** Bumped by every invalidation: a lookup that read the database before one may not cache what it read. */
  private invalidations = 0;

  constructor(
    private readonly config: AppConfig,
    private readonly bus: AuthInvalidationBus,
  ) {
    bus.onMessage((m) => {
      this.invalidations++;
      if (m.all) {
        this.entries.clear();
        this.clientIds.clear();
      }
      if (m.client) this.forget(m.client);
    });
  }

  /** A keyed hash of a client's secret (the secret itself is never kept). */
  private mac(clientId: string, secret: string): Buffer {
    return createHmac('sha256', this.macKey).update(clientId).update('\0').update(secret).digest();
  }

  /**
   * The client row remembered for this exact client_id and secret, or undefined (never cached,
   * expired, invalidated, or another secret: the caller then reads the database and verifies there).
   */
  get<T>(clientId: string, secret: string): T | undefined {
    const hit = this.entries.get(clientId);
    if (!hit) return undefined;
    return constantTimeEqual(hit.mac, this.mac(clientId, secret)) ? (hit.client as T) : undefined;
  }

  /** The invalidation count to pass to remember: take it BEFORE reading the client. */
  lookupStarted(): number {
    return this.invalidations;
  }

  /**
   * Remember a client whose secret was just verified against the database, unless an invalidation
   * arrived since `startedAt` (what was read may be older than that change).
   */
  remember(clientId: string, clientUuid: string, secret: string, client: unknown, startedAt: number) {
    const ttlMs = this.config.AUTH_CACHE_SECONDS * 1000;
    if (startedAt !== this.invalidations || ttlMs <= 0) return;
    this.bus.ensureSubscribed();
    if (this.clientIds.size >= 20000) this.clientIds.clear();
    this.entries.set(clientId, { mac: this.mac(clientId, secret), uuid: clientUuid, client }, ttlMs);
    this.clientIds.set(clientUuid, clientId);
  }

  private forget(clientUuid: string) {
    const clientId = this.clientIds.get(clientUuid);
    if (clientId === undefined) return;
    this.entries.delete(clientId);
    this.clientIds.delete(clientUuid);
  }
}
