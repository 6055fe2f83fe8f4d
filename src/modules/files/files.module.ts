import { Module } from '@nestjs/common';
import { fileStorageProvider } from '../../core/storage/storage.provider';
import { FilesController } from './files.controller';

/** The public signed-file route (API process). */
@Module({
  controllers: [FilesController],
  providers: [fileStorageProvider],
})
export class FilesModule {}
