import { Provider } from '@nestjs/common';
import { AppConfig } from '../config/config';
import { createStorage, FileStorage } from './storage';

/** The configured file storage (disk under STORAGE_DIR, or S3 when S3_BUCKET is set), injectable as FileStorage. */
export const fileStorageProvider: Provider = {
  provide: FileStorage,
  inject: [AppConfig],
  useFactory: (config: AppConfig) => createStorage(config),
};
