import { Module } from '@nestjs/common';
import { OffersV1Service } from './offers-v1.service';
import { OffersV1Controller } from './offers.v1.controller';
import { PurchasesService } from './purchases.service';
import { PurchasesV1Controller } from './purchases.v1.controller';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LicensePackageOffer } from './license-package-offer.entity';
import { LicensePackage } from './license-package.entity';
import { LicenseSeatEntity } from './license-seat.entity';
import { Offer } from './offer.entity';
import { PromoCodePoolOffer } from './promo-code-pool-offer.entity';
import { PromoCodePool } from './promo-code-pool.entity';
import { PromoCodeUse } from './promo-code-use.entity';
import { PromoCode } from './promo-code.entity';
import { Purchase } from './purchase.entity';
import { TrainingCreditCodeGroup } from './training-credit-code-group.entity';
import { TrainingCreditCodeOffer } from './training-credit-code-offer.entity';
import { TrainingCreditCode } from './training-credit-code.entity';
import { TrainingCreditSpend } from './training-credit-spend.entity';

/**
 * Commerce (issue 11): offers, checkout and purchases (this module's core), and the limits checkout
 * enforces (promo codes, training credits, license packages: their controllers and providers are
 * added here or in their own module by their files' owners). See docs/decisions/commerce.md.
 * What fulfilment grants (domain memberships, enrollments) comes from the root's PurchaseGrantsModule.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([
      LicensePackageOffer,
      LicensePackage,
      LicenseSeatEntity,
      Offer,
      PromoCodePoolOffer,
      PromoCodePool,
      PromoCodeUse,
      PromoCode,
      Purchase,
      TrainingCreditCodeGroup,
      TrainingCreditCodeOffer,
      TrainingCreditCode,
      TrainingCreditSpend,
    ]),
  ],
  controllers: [OffersV1Controller, PurchasesV1Controller],
  providers: [OffersV1Service, PurchasesService],
  exports: [OffersV1Service, PurchasesService],
})
export class CommerceModule {}
