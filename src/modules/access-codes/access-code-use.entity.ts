import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The `access_code_uses` table, declared for TypeORM's metadata (docs/decisions/data-access.md). */
@Entity('access_code_uses')
export class AccessCodeUse {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('uuid') accessCodeId: string;
  @Column('uuid') userId: string;
  @Column('timestamptz') usedAt: Date;
}
