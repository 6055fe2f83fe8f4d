import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A learning path of the organization (/v1/paths); published to domains as PublishedPath. */
@Entity('paths')
export class LearningPath {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('text') title: string;
  @Column('text') shortDescription: string;
  @Column('text') longDescriptionHtml: string;
  @Column('text') headerHtml: string;
  @Column('text') courseNameSingular: string;
  @Column('text') courseNamePlural: string;
  @Column('text') promoImageUrl: string;
  @Column('text') searchKeywords: string;
  @Column('timestamptz', { nullable: true }) deletedAt: Date | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
