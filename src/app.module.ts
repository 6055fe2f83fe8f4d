import { DynamicModule, Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { AppConfig } from './core/config/config';
import { CoreModule } from './core/core.module';
import { IdempotencyModule } from './core/idempotency/idempotency.module';
import { applyIdempotencyToWrites } from './core/idempotency/wire';
import { CommerceModule } from './modules/commerce/commerce.module';
import { CoursesApiModule } from './courses-api.module';
import { DomainsModule } from './modules/domains/domains.module';
import { DomainUsersModule } from './modules/domain-users/domain-users.module';
import { GroupsModule } from './modules/groups/groups.module';
import { HealthModule } from './modules/health/health.module';
import { McpModule } from './modules/mcp/mcp.module';
import { OAuthModule } from './modules/auth/oauth.module';
import { OrganizationOAuthModule } from './modules/auth/organization-oauth.module';
import { PersonErasureModule } from './person-erasure.module';
import { PurchaseGrantsModule } from './purchase-grants.module';
import { CourseProgressWritesModule } from './modules/progress/course-progress-writes.module';
import { EnrollmentRatingsModule } from './modules/analytics/enrollment-ratings.module';
import { GroupVisibilityWritesModule } from './modules/groups/group-visibility-writes.module';
import { OrganizationsModule } from './modules/organizations/organizations.module';
import { AdminsApiModule } from './modules/organizations/admins-api.module';
import { AuditModule } from './modules/audit/audit.module';
import { ScimModule } from './modules/scim/scim.module';
import { PathsModule } from './modules/paths/paths.module';
import { PlansModule } from './modules/plans/plans.module';
import { ProgressModule } from './modules/progress/progress.module';
import { CourseSeriesModule } from './modules/course-series/course-series.module';
import { AccessCodesModule } from './modules/access-codes/access-codes.module';
import { PublishedCoursesModule } from './modules/published-courses/published-courses.module';
import { StudentsModule } from './modules/students/students.module';
import { WebhooksModule } from './modules/webhooks/webhooks.module';
import { ContentFilesModule } from './modules/content-files/content-files.module';
import { ContentRunsModule } from './modules/content-runs/content-runs.module';
import { LrsModule } from './modules/lrs/lrs.module';
import { FilesModule } from './modules/files/files.module';
import { CommerceLimitsModule } from './modules/commerce/commerce-limits.module';
import { QuizzesModule } from './modules/quizzes/quizzes.module';
import { TrainingModule } from './modules/training/training.module';
import { ReenrollmentModule } from './modules/reenrollment/reenrollment.module';
import { CatalogPagesModule } from './modules/catalog-pages/catalog-pages.module';
import { DataOutModule } from './modules/data-out/data-out.module';

/** The API process: core plus every resource module's controllers. Queues are producers only here. */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig, logger?: Logger): DynamicModule {
    return applyIdempotencyToWrites({
      module: AppModule,
      imports: [
        CoreModule.forRoot(config, { http: true, logger }),
        IdempotencyModule,
        HealthModule,
        ContentFilesModule,
        ContentRunsModule,
        LrsModule,
        FilesModule,
        OrganizationsModule,
        OrganizationOAuthModule,
        AdminsApiModule,
        AuditModule,
        ScimModule,
        DomainsModule,
        OAuthModule,
        PublishedCoursesModule,
        AccessCodesModule,
        CourseSeriesModule,
        PlansModule,
        PathsModule,
        StudentsModule,
        PersonErasureModule,
        ProgressModule,
        CourseProgressWritesModule,
        GroupsModule,
        GroupVisibilityWritesModule,
        CoursesApiModule,
        EnrollmentRatingsModule,
        DomainUsersModule,
        WebhooksModule,
        McpModule,
        CommerceModule,
        PurchaseGrantsModule,
        CommerceLimitsModule,
        QuizzesModule,
        TrainingModule,
        ReenrollmentModule,
        CatalogPagesModule,
        DataOutModule,
      ],
    });
  }
}
