import { Column, Entity } from 'typeorm';
import { UpdatedOrgEntity } from '../../core/database/org-entity';
import type { EventType } from '../../core/events/outbox';

export type DeactivateReason = 'HTTP_4XX_RESPONSE' | 'RETRY_COUNT' | 'TOO_MANY_REDIRECTS' | 'ORG_DISABLED';

/** A webhook of an organization. `secret`, `previousSecret` and `basicAuthPassword` are AES-GCM sealed (core/crypto). */
@Entity('webhooks')
export class Webhook extends UpdatedOrgEntity {
  @Column('text') targetUrl: string;
  @Column('text', { nullable: true }) eventType: EventType | null;
  @Column('boolean') active: boolean;
  @Column('text', { nullable: true }) deactivateReason: DeactivateReason | null;
  @Column('text') basicAuthUsername: string;
  @Column('text', { nullable: true }) basicAuthPassword: string | null;
  @Column('jsonb') additionalHeaders: Record<string, string>;
  @Column('text') secret: string;
  /** the secret the last rotation replaced (sealed), still signed with until previousSecretExpiresAt */
  @Column('text', { nullable: true }) previousSecret: string | null;
  @Column('timestamptz', { nullable: true }) previousSecretExpiresAt: Date | null;
}
