import { Controller } from '@nestjs/common';
import { V1 } from '../../core/http/interfaces';
import { V1Resource } from '../../core/routes/v1-resource';
import { V1_PAGE_CAP } from '../../core/pagination/v1-page';
import { OfferUpdateDto } from './dto/offer.dto';
import { presentOfferItem } from './offers.presenter';
import { OffersV1Service } from './offers-v1.service';

/** /v1/offers (offers:read / offers:write): list, read, PUT and PATCH (both partial). */
@V1()
@V1Resource<OffersV1Service>({
  service: OffersV1Service,
  id: 'offer_id',
  scopes: 'offers',
  present: presentOfferItem,
  list: { call: (s) => s.list, cap: V1_PAGE_CAP.small },
  read: { call: (s) => s.read },
  update: { call: (s) => s.update, body: OfferUpdateDto },
})
@Controller('v1/offers')
export class OffersV1Controller {
  constructor(readonly offers: OffersV1Service) {}
}
