import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The `signing_keys` table, declared for TypeORM's metadata (docs/decisions/data-access.md). */
@Entity('signing_keys')
export class SigningKeyEntity {
  @PrimaryColumn('text') kid: string;
  @Column('text') alg: string;
  @Column('jsonb') publicJwk: unknown;
  @Column('text') privateKeyEnc: string;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz', { nullable: true }) retiredAt: Date | null;
}
