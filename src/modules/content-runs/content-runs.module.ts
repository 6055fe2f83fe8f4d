import { Module } from '@nestjs/common';
import { fileStorageProvider } from '../../core/storage/storage.provider';
import { LrsModule } from '../lrs/lrs.module';
import { ProgressModule } from '../progress/progress.module';
import { Cmi5Service } from './cmi5.service';
import { LaunchesV1Controller, LaunchesV2Controller } from './launches.controller';
import { LaunchesService } from './launches.service';
import { PlayerController } from './player.controller';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ContentAttempt } from './content-attempt.entity';
import { ContentLaunch } from './content-launch.entity';
import { ContentSharedData } from './content-shared-data.entity';

/**
 * Learning content runs (CONVENTIONS §18, docs/decisions/content-runs.md): launches of web-package
 * lessons, the player and the SCORM runtime. Owns content_attempts, content_launches and
 * content_shared_data (SCORM 2004 shared data buckets); writes
 * progress through ProgressService.
 */
@Module({
  imports: [TypeOrmModule.forFeature([ContentAttempt, ContentLaunch, ContentSharedData]), ProgressModule, LrsModule],
  controllers: [LaunchesV1Controller, LaunchesV2Controller, PlayerController],
  providers: [LaunchesService, Cmi5Service, fileStorageProvider],
})
export class ContentRunsModule {}
