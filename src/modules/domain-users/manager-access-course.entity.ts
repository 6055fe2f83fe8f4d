import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The `manager_access_courses` table, declared for TypeORM's metadata (docs/decisions/data-access.md); its row type: manager-access-courses.store.ts. */
@Entity('manager_access_courses')
export class ManagerAccessCourse {
  @Column('uuid') organizationId: string;
  @PrimaryColumn('uuid') managerAccessId: string;
  @PrimaryColumn('uuid') courseId: string;
  @Column('integer') position: number;
}
