import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The `content_shared_data` table, declared for TypeORM's metadata (docs/decisions/data-access.md); its row type: content-shared-data.store.ts. */
@Entity('content_shared_data')
export class ContentSharedData {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('uuid') userId: string;
  @Column('uuid', { nullable: true }) lessonProgressId: string | null;
  @Column('uuid', { nullable: true }) webPackageId: string | null;
  @Column('text') targetId: string;
  @Column('text') value: string;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
}
