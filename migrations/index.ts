import { Foundation1763700000000 } from './1763700000000-foundation';
import { LearningModel1763700001000 } from './1763700001000-learning-model';
import { CourseRatingScale1763700003000 } from './1763700003000-course-rating-scale';
import { V1Catalog1763700006000 } from './1763700006000-v1-catalog';
import { V1Content1763700005000 } from './1763700005000-v1-content';
import { PathsPlansCodes1763700007000 } from './1763700007000-paths-plans-codes';
import { PathLabelsFk1763700007001 } from './1763700007001-path-labels-fk';
import { PathTagsVisibility1763700007002 } from './1763700007002-path-tags-visibility';
import { Webhooks1763700008000 } from './1763700008000-webhooks';
import { ContentFiles1763700009000 } from './1763700009000-content-files';
import { PublishedCourseTags1763700006100 } from './1763700006100-published-course-tags';
import { PublishedCoursePrerequisites1763700006200 } from './1763700006200-published-course-prerequisites';
import { LessonSearchStatementTriggers1763700010000 } from './1763700010000-lesson-search-statement-triggers';
import { V1Groups1763700011000 } from './1763700011000-v1-groups';
import { OutboxSequence1763700012000 } from './1763700012000-outbox-sequence';
import { OutboxRetention1763700013000 } from './1763700013000-outbox-retention';
import { LowercasePublicIds1763700014000 } from './1763700014000-lowercase-public-ids';
import { UsersExternalId1763700014001 } from './1763700014001-users-external-id';
import { WebhookSecretRotation1763700014200 } from './1763700014200-webhook-secret-rotation';
import { WebhookDeliveryAwaitingEnqueue1763700014210 } from './1763700014210-webhook-delivery-awaiting-enqueue';
import { WebhookDeliveriesPerWebhook1763700025900 } from './1763700025900-webhook-deliveries-per-webhook';

import { IdempotencyKeys1763700014500 } from './1763700014500-idempotency-keys';
import { HashInviteTokens1763700014300 } from './1763700014300-hash-invite-tokens';
import { PasswordResetMails1763700014400 } from './1763700014400-password-reset-mails';
import { RefreshGrace1763700014857 } from './1763700014857-refresh-grace';
import { IdempotencyBodyLz41763700014501 } from './1763700014501-idempotency-body-lz4';
import { IdempotencySealedAnswers1763700014600 } from './1763700014600-idempotency-sealed-answers';
import { Progress1763700016000 } from './1763700016000-progress';
import { OrganizationForeignKeys1763700015000 } from './1763700015000-organization-foreign-keys';
import { V1UsersIndexes1763700016100 } from './1763700016100-v1-users-indexes';
import { DomainUsersOrgUserIndex1763700016101 } from './1763700016101-domain-users-org-user-index';
import { Quizzes1763700018000 } from './1763700018000-quizzes';
import { V2Enrollments1763700016200 } from './1763700016200-v2-enrollments';
import { Commerce1763700017000 } from './1763700017000-commerce';
import { CommerceLimits1763700017100 } from './1763700017100-commerce-limits';
import { CommerceLimitsPurchaseKeys1763700017101 } from './1763700017101-commerce-limits-purchase-keys';
import { PurchasesGrantLookup1763700017200 } from './1763700017200-purchases-grant-lookup';
import { PromoUsesCountedAtSuccess1763700026000 } from './1763700026000-promo-uses-counted-at-success';
import { LiveTraining1763700019000 } from './1763700019000-live-training';
import { LiveTrainingMailPerMeeting1763700025500 } from './1763700025500-live-training-mail-per-meeting';
import { LiveTrainingCancellations1763700019100 } from './1763700019100-live-training-cancellations';
import { AdminWrites1763700020000 } from './1763700020000-admin-writes';
import { V2RestIndexes1763700021000 } from './1763700021000-v2-rest-indexes';
import { IdempotencyCommitMarker1763700026100 } from './1763700026100-idempotency-commit-marker';
import { RevokedAccessTokens1763700027000 } from './1763700027000-revoked-access-tokens';
import { Identity1763760000000 } from './1763760000000-identity';
import { DomainMembershipsV21763740000000 } from './1763740000000-domain-memberships-v2';
import { CourseRatingScale1763740001000 } from './1763740001000-course-rating-scale';
import { ManagerAccess1763740002000 } from './1763740002000-manager-access';
import { ReenrollmentRules1763740003000 } from './1763740003000-reenrollment-rules';
import { CatalogPages1763740004000 } from './1763740004000-catalog-pages';
import { CatalogPageContent1763740005000 } from './1763740005000-catalog-page-content';
import { WebPackageLaunch1763750000000 } from './1763750000000-web-package-launch';
import { ContentRuns1763750001000 } from './1763750001000-content-runs';
import { Lrs1763750002000 } from './1763750002000-lrs';
import { DataOut1763770000000 } from './1763770000000-data-out';
/** Every migration, in timestamp order (TypeORM runs them by timestamp). Add new ones at the end. */
import { VerifiableCertificates1763790000000 } from './1763790000000-verifiable-certificates';
import { UpdatedSinceIndexes1763820000000 } from './1763820000000-updated-since-indexes';
import { UpdatedSinceLists1763830000000 } from './1763830000000-updated-since-lists';
import { ScaleGradedLessonsIndex1763870000000 } from './1763870000000-scale-graded-lessons-index';
import { CoursesUpdatedSince1763840000000 } from './1763840000000-courses-updated-since';
import { LrsRefsOrder1763910000000 } from './1763910000000-lrs-refs-order';
import { LrsStatementAgents1763950000000 } from './1763950000000-lrs-statement-agents';
import { LrsStatementAgentsFk1763985000000 } from './1763985000000-lrs-statement-agents-fk';
import { ContentItems1763950001000 } from './1763950001000-content-items';
import { UpdatedSinceCatalogWebhooks1763890000000 } from './1763890000000-updated-since-catalog-webhooks';
import { CertificatesUpdatedAt1763890001000 } from './1763890001000-certificates-updated-at';
import { LessonsUpdatedSince1763890002000 } from './1763890002000-lessons-updated-since';
import { PublishedCoursesUpdatedSince1763890003000 } from './1763890003000-published-courses-updated-since';
import { V1ResourceUpdatedSince1763880000000 } from './1763880000000-v1-resource-updated-since';
import { UpdatedSinceCatalogCodesSignup1763920000000 } from './1763920000000-updated-since-catalog-codes-signup';
import { UpdatedSinceQuizzesProgress1763940000000 } from './1763940000000-updated-since-quizzes-progress';
import { UpdatedSinceListsB1763930000000 } from './1763930000000-updated-since-lists-b';
import { CourseRatingsUpdatedAt1763930001000 } from './1763930001000-course-ratings-updated-at';
import { DeletedEvents1763990000000 } from './1763990000000-deleted-events';
import { ContentSharedData1763995000000 } from './1763995000000-content-shared-data';
export const MIGRATIONS = [
  Foundation1763700000000,
  LearningModel1763700001000,
  CourseRatingScale1763700003000,
  V1Content1763700005000,
  V1Catalog1763700006000,
  PublishedCourseTags1763700006100,
  PublishedCoursePrerequisites1763700006200,
  PathsPlansCodes1763700007000,
  PathLabelsFk1763700007001,
  PathTagsVisibility1763700007002,
  Webhooks1763700008000,
  ContentFiles1763700009000,
  LessonSearchStatementTriggers1763700010000,
  V1Groups1763700011000,
  OutboxSequence1763700012000,
  OutboxRetention1763700013000,
  WebhookSecretRotation1763700014200,
  WebhookDeliveryAwaitingEnqueue1763700014210,
  IdempotencyKeys1763700014500,
  HashInviteTokens1763700014300,
  PasswordResetMails1763700014400,
  RefreshGrace1763700014857,
  IdempotencyBodyLz41763700014501,
  LowercasePublicIds1763700014000,
  UsersExternalId1763700014001,
  IdempotencySealedAnswers1763700014600,
  OrganizationForeignKeys1763700015000,
  Progress1763700016000,
  V1UsersIndexes1763700016100,
  DomainUsersOrgUserIndex1763700016101,
  V2Enrollments1763700016200,
  Commerce1763700017000,
  CommerceLimits1763700017100,
  CommerceLimitsPurchaseKeys1763700017101,
  PurchasesGrantLookup1763700017200,
  Quizzes1763700018000,
  LiveTraining1763700019000,
  LiveTrainingCancellations1763700019100,
  AdminWrites1763700020000,
  V2RestIndexes1763700021000,
  LiveTrainingMailPerMeeting1763700025500,
  WebhookDeliveriesPerWebhook1763700025900,
  PromoUsesCountedAtSuccess1763700026000,
  IdempotencyCommitMarker1763700026100,
  RevokedAccessTokens1763700027000,
  Identity1763760000000,
  VerifiableCertificates1763790000000,
  DomainMembershipsV21763740000000,
  CourseRatingScale1763740001000,
  ManagerAccess1763740002000,
  ReenrollmentRules1763740003000,
  CatalogPages1763740004000,
  CatalogPageContent1763740005000,
  WebPackageLaunch1763750000000,
  ContentRuns1763750001000,
  Lrs1763750002000,
  DataOut1763770000000,
  UpdatedSinceIndexes1763820000000,
  UpdatedSinceLists1763830000000,
  ScaleGradedLessonsIndex1763870000000,
  CoursesUpdatedSince1763840000000,
  LrsRefsOrder1763910000000,
  UpdatedSinceCatalogWebhooks1763890000000,
  CertificatesUpdatedAt1763890001000,
  LessonsUpdatedSince1763890002000,
  PublishedCoursesUpdatedSince1763890003000,
  V1ResourceUpdatedSince1763880000000,
  UpdatedSinceCatalogCodesSignup1763920000000,
  UpdatedSinceQuizzesProgress1763940000000,
  LrsStatementAgents1763950000000,
  ContentItems1763950001000,
  UpdatedSinceListsB1763930000000,
  CourseRatingsUpdatedAt1763930001000,
  DeletedEvents1763990000000,
  LrsStatementAgentsFk1763985000000,
  ContentSharedData1763995000000,
];
