import { Module } from '@nestjs/common';
import { LicensePackagesService } from './license-packages.service';
import { LicensePackagesV1Controller } from './license-packages.v1.controller';
import { PromoCodesService } from './promo-codes.service';
import { PromoCodePoolsV1Controller, PromoCodesV1Controller } from './promo-codes.v1.controller';
import { TrainingCreditsService } from './training-credits.service';
import { TrainingCreditCodesV1Controller } from './training-credits.v1.controller';

/**
 * Commerce limits (issue 11 items 3-6): promo code pools and codes, training credit codes, license
 * packages and their seats. Checkout uses checkout-limits.ts (plain functions, no provider).
 */
@Module({
  controllers: [PromoCodePoolsV1Controller, PromoCodesV1Controller, TrainingCreditCodesV1Controller, LicensePackagesV1Controller],
  providers: [PromoCodesService, TrainingCreditsService, LicensePackagesService],
  exports: [PromoCodesService, TrainingCreditsService, LicensePackagesService],
})
export class CommerceLimitsModule {}
