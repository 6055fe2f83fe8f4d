import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The `certificate_templates` table, declared for TypeORM's metadata (docs/decisions/data-access.md). */
@Entity('certificate_templates')
export class CertificateTemplateEntity {
  @PrimaryColumn('uuid') organizationId: string;
  @Column('text') title: string;
  @Column('text') primaryColor: string;
  @Column('text') accentColor: string;
  @Column('text', { nullable: true }) signatureName: string | null;
  @Column('text', { nullable: true }) signatureTitle: string | null;
  @Column('bytea', { nullable: true }) logo: Buffer | null;
  @Column('text', { nullable: true }) logoType: string | null;
  @Column('timestamptz') updatedAt: Date;
}
