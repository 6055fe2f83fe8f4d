import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AssetsService } from './assets.service';
import { AssetsV1Controller } from './assets.v1.controller';
import { AssetsV2Controller } from './assets.v2.controller';
import { AssetsV2Service } from './assets.v2.service';
import { Asset, WebPackage } from './entities';
import { ImportJobs } from './import-jobs';
import { fileStorageProvider } from '../../core/storage/storage.provider';
import { WebPackagesService } from './web-packages.service';
import { WebPackagesV1Controller } from './web-packages.v1.controller';
import { WebPackagesV2Controller } from './web-packages.v2.controller';
import { WebPackagesV2Service } from './web-packages.v2.service';

/** /v1 and /v2 assets, /v1 and /v2 web packages (API process: records and queues imports; the worker does the fetching). */
@Module({
  imports: [TypeOrmModule.forFeature([Asset, WebPackage])],
  controllers: [AssetsV1Controller, AssetsV2Controller, WebPackagesV1Controller, WebPackagesV2Controller],
  providers: [AssetsService, AssetsV2Service, WebPackagesService, WebPackagesV2Service, ImportJobs, fileStorageProvider],
})
export class ContentFilesModule {}
