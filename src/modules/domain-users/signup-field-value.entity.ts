import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The `signup_field_values` table, declared for TypeORM's metadata (docs/decisions/data-access.md); its row type: signup-field-values.store.ts. */
@Entity('signup_field_values')
export class SignupFieldValue {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('uuid') userId: string;
  @Column('uuid') signupFieldId: string;
  @Column('text') value: string;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
}
