import { Module } from '@nestjs/common';
import { fileStorageProvider } from '../content-files/storage.provider';
import { FilesController } from './files.controller';

/** The public signed-file route (API process). */
@Module({
  controllers: [FilesController],
  providers: [fileStorageProvider],
})
export class FilesModule {}
