import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/config';
import { dataSourceOptions } from './database';
import { assertServingRole, ServingRoleRefused } from './roles';

/**
 * The process's data source, on APP_DATABASE_URL (the application role; DATABASE_URL is the
 * owner's, for migrate() only). It is refused, and the process does not start, when that
 * connection is a superuser or owns tables (roles.ts): no retry for that.
 */
@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        ...dataSourceOptions(config),
        autoLoadEntities: true,
        migrationsRun: false,
        toRetry: (err: unknown) => !(err instanceof ServingRoleRefused),
      }),
      dataSourceFactory: async (options) => {
        const ds = await new DataSource(options!).initialize();
        try {
          await assertServingRole((sql, params) => ds.query<unknown>(sql, params));
        } catch (e) {
          await ds.destroy().catch(() => undefined);
          throw e;
        }
        return ds;
      },
    }),
  ],
})
export class DatabaseModule {}
