import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DomainsModule } from '../domains/domains.module';
import { LearningPath } from './path.entity';
import { PathEnrollmentsService } from './path-enrollments.service';
import { PathItemsService } from './path-items.service';
import { PathLookups } from './path-lookups.service';
import { PathsService } from './paths.service';
import { PublishedPathLinksService } from './published-path-links.service';
import { PublishedPathsService } from './published-paths.service';
import { PathsV1Controller } from './paths.v1.controller';
import { PathItem, PathLabel, PublishedPath, PublishedPathEnrollment } from './published-path.entity';
import { PublishedPathsV1Controller } from './published-paths.v1.controller';
import { PathTag } from './path-tag.entity';
import { PathVisibilityOverride } from './path-visibility-override.entity';

/** Paths, published paths and their sub-resources (one service each: published paths, labels/tags/overrides, items, enrollments) and /v1/paths. */
@Module({
  imports: [TypeOrmModule.forFeature([LearningPath, PublishedPath, PathItem, PathLabel, PublishedPathEnrollment, PathTag, PathVisibilityOverride]), DomainsModule],
  controllers: [PublishedPathsV1Controller, PathsV1Controller],
  providers: [PathLookups, PublishedPathsService, PublishedPathLinksService, PathItemsService, PathEnrollmentsService, PathsService],
  exports: [PathsService, PublishedPathsService],
})
export class PathsModule {}
