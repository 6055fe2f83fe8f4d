import { Provider } from '@nestjs/common';
import { AppConfig } from '../../core/config/config';
import { createStorage, FileStorage } from '../../core/storage/storage';

/** The configured file storage (disk under STORAGE_DIR, or S3 when S3_BUCKET is set), injectable as FileStorage. */
export const fileStorageProvider: Provider = {
  provide: FileStorage,
  inject: [AppConfig],
  useFactory: (config: AppConfig) => createStorage(config),
};
