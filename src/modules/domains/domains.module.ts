import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Domain } from './domain.entity';
import { DomainsAdminV1Controller } from './domains-admin.v1.controller';
import { DomainsService } from './domains.service';
import { DomainsV1Controller } from './domains.v1.controller';
import { DomainsV2Controller } from './domains.v2.controller';
import { DomainsV2Service } from './domains.v2.service';

@Module({
  imports: [TypeOrmModule.forFeature([Domain])],
  controllers: [DomainsV1Controller, DomainsAdminV1Controller, DomainsV2Controller],
  providers: [DomainsService, DomainsV2Service],
  exports: [DomainsService, DomainsV2Service],
})
export class DomainsModule {}
