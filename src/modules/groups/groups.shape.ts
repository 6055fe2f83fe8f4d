import type { Timestamp } from '../../core/database/pool-reads';
import type { Group } from './group.entity';

/** What a group resource shows: a Group entity, or a row read with these members as pg answers it. */
export type GroupView = Pick<Group, 'id' | 'name' | 'ruleEmailDomains' | 'sendCourseEnrollmentEmail' | 'categoryId'> & { createdAt: Timestamp; updatedAt: Timestamp };
