import { Module } from '@nestjs/common';
import { fileStorageProvider } from '../content-files/storage.provider';
import { ProgressModule } from '../progress/progress.module';
import { LaunchesV1Controller, LaunchesV2Controller } from './launches.controller';
import { LaunchesService } from './launches.service';
import { PlayerController } from './player.controller';

/**
 * Learning content runs (CONVENTIONS §18, docs/decisions/content-runs.md): launches of web-package
 * lessons, the player and the SCORM runtime. Owns content_attempts and content_launches; writes
 * progress through ProgressService.
 */
@Module({
  imports: [ProgressModule],
  controllers: [LaunchesV1Controller, LaunchesV2Controller, PlayerController],
  providers: [LaunchesService, fileStorageProvider],
})
export class ContentRunsModule {}
