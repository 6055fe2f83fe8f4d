import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ContentFilesProcessor } from './content-files.processor';
import { Asset, WebPackage } from './entities';
import { AssetImporter, WebPackageImporter } from './importers';
import { ImportJobs } from './import-jobs';
import { fileStorageProvider } from '../../core/storage/storage.provider';

/** The content-files queue consumer and the importers. Imported by the worker module only. */
@Module({
  imports: [TypeOrmModule.forFeature([Asset, WebPackage])],
  providers: [AssetImporter, WebPackageImporter, ImportJobs, ContentFilesProcessor, fileStorageProvider],
  exports: [WebPackageImporter],
})
export class ContentFilesWorkerModule {}
