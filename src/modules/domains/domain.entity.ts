import { Column, Entity } from 'typeorm';
import { UpdatedOrgEntity } from '../../core/database/org-entity';

export type DomainAccess = 'PUBLIC' | 'PRIVATE' | 'PRIVATE_CODE';

/** A learner-facing domain (catalog) of an organization; courses are published to domains. */
@Entity('domains')
export class Domain extends UpdatedOrgEntity {
  @Column('text') name: string;
  @Column('text') access: DomainAccess;
  @Column('text') catalogTitle: string;
  @Column('text') accessCodeMessageHtml: string;
  @Column('text') marketingMessage: string;
}
