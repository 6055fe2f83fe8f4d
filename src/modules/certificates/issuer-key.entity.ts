import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The `issuer_keys` table, declared for TypeORM's metadata (docs/decisions/data-access.md). */
@Entity('issuer_keys')
export class IssuerKey {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('integer') keyNumber: number;
  @Column('text') publicKeyMultibase: string;
  @Column('text') privateKeySealed: string;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz', { nullable: true }) retiredAt: Date | null;
}
