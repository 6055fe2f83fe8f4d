import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The `revoked_access_tokens` table, declared for TypeORM's metadata (docs/decisions/data-access.md). */
@Entity('revoked_access_tokens')
export class RevokedAccessToken {
  @PrimaryColumn('text') jti: string;
  @Column('timestamptz') expiresAt: Date;
  @Column('timestamptz') revokedAt: Date;
}
