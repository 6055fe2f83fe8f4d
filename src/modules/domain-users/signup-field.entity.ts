import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The `signup_fields` table, declared for TypeORM's metadata (docs/decisions/data-access.md); its row type: signup-fields.store.ts. */
@Entity('signup_fields')
export class SignupField {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('uuid', { nullable: true }) domainId: string | null;
  @Column('text') type: string;
  @Column('text') label: string;
  @Column('text') helpText: string;
  @Column('text') regexValidator: string;
  @Column('text') regexValidatorErrorText: string;
  @Column('boolean') required: boolean;
  @Column('boolean') active: boolean;
  @Column('integer') order: number;
  @Column('jsonb') options: unknown;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
}
