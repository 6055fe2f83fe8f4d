import { Column, Entity } from 'typeorm';
import { DomainOrgEntity } from '../../core/database/org-entity';

export type PoolChannel = 'api' | 'import' | 'dashboard' | 'ecommerce' | 'unknown';
export type DurationUnit = 'MONTHS' | 'DAYS';

/** A pool of access codes on a domain. */
@Entity('access_code_pools')
export class AccessCodePool extends DomainOrgEntity {
  @Column('text') name: string;
  @Column('boolean') active: boolean;
  @Column('timestamptz', { nullable: true }) startDate: Date | null;
  @Column('timestamptz', { nullable: true }) endDate: Date | null;
  @Column('boolean') expireLinkedToDomainMembership: boolean;
  @Column('text', { nullable: true }) channel: PoolChannel | null;
}

/**
 * A code learners type to join a domain; unique per domain. `use_count` is the redemption counter
 * (incremented with `access_code_uses` rows by whoever redeems, see the decisions doc).
 */
@Entity('access_codes')
export class AccessCode extends DomainOrgEntity {
  @Column('uuid') poolId: string;
  @Column('text') code: string;
  @Column('boolean') active: boolean;
  @Column('integer') maxUses: number;
  @Column('integer') useCount: number;
  @Column('integer', { nullable: true }) duration: number | null;
  @Column('text') durationUnit: DurationUnit;
}
