import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The `password_reset_mails` table, declared for TypeORM's metadata (docs/decisions/data-access.md). */
@Entity('password_reset_mails')
export class PasswordResetMail {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('uuid') userId: string;
  @Column('text') domainName: string;
  @Column('timestamptz') expiresAt: Date;
  @Column('text', { nullable: true }) passwordChangedAt: string | null;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz', { nullable: true }) doneAt: Date | null;
}
