import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/config';
import { dataSourceOptions } from './database';

@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({ ...dataSourceOptions(config), autoLoadEntities: true, migrationsRun: false }),
    }),
  ],
})
export class DatabaseModule {}
