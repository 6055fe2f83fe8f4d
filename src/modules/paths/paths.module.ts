import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DomainsModule } from '../domains/domains.module';
import { LearningPath } from './path.entity';
import { PathsService } from './paths.service';
import { PathsV1Controller } from './paths.v1.controller';
import { PathItem, PathLabel, PublishedPath, PublishedPathEnrollment } from './published-path.entity';
import { PublishedPathsV1Controller } from './published-paths.v1.controller';

/** Paths, published paths (items, labels, enrollments) and the /v1/paths read side. */
@Module({
  imports: [TypeOrmModule.forFeature([LearningPath, PublishedPath, PathItem, PathLabel, PublishedPathEnrollment]), DomainsModule],
  controllers: [PublishedPathsV1Controller, PathsV1Controller],
  providers: [PathsService],
  exports: [PathsService],
})
export class PathsModule {}
