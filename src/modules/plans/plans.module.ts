import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DomainsModule } from '../domains/domains.module';
import { Plan, PlanEnrollment } from './plan.entity';
import { PlansAdminService } from './plans-admin.service';
import { PlansAdminV1Controller } from './plans-admin.v1.controller';
import { PlansService } from './plans.service';
import { PlansV1Controller } from './plans.v1.controller';
import { PlanItem } from './plan-item.entity';

/** Plans of a domain and plan enrollments (/v1/domains/{domain_name}/plan). */
@Module({
  imports: [TypeOrmModule.forFeature([Plan, PlanEnrollment, PlanItem]), DomainsModule],
  controllers: [PlansV1Controller, PlansAdminV1Controller],
  providers: [PlansService, PlansAdminService],
  exports: [PlansService, PlansAdminService],
})
export class PlansModule {}
