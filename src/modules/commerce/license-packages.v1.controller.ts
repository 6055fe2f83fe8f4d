import { Controller } from '@nestjs/common';
import { V1 } from '../../core/http/interfaces';
import { V1Resource } from '../../core/routes/v1-resource';
import { V1_PAGE_CAP } from '../../core/pagination/v1-page';
import { LicensePackageCreateDto, LicensePackagePatchDto, LicensePackageSeatCreateDto, LicensePackageSeatUpdateDto } from './dto/license-packages.dto';
import { presentPackage, presentSeat } from './license-packages.presenter';
import { LicensePackagesService } from './license-packages.service';

/** What the packages and their seats share: the controller's service and the `licensing` scopes. */
const LICENSING = { service: LicensePackagesService, scopes: 'licensing' } as const;

/**
 * /v1/license-packages and their students (the `licensing` family): packages list, create, read,
 * partial update (PATCH only, as published), delete; seats list, add, update (PUT and PATCH).
 */
@V1()
@V1Resource<LicensePackagesService>({
  ...LICENSING,
  id: 'license_package_id',
  present: presentPackage,
  list: { call: (s) => s.list, cap: V1_PAGE_CAP.large, defaultSize: V1_PAGE_CAP.small },
  create: { call: (s) => s.create, body: LicensePackageCreateDto },
  read: { call: (s) => s.read },
  patch: { call: (s) => s.update, body: LicensePackagePatchDto },
  remove: { call: (s) => s.remove },
})
@V1Resource<LicensePackagesService>({
  ...LICENSING,
  at: ':license_package_id/students',
  id: 'student_id',
  present: presentSeat,
  list: { call: (s) => s.listSeats, cap: V1_PAGE_CAP.large, defaultSize: V1_PAGE_CAP.small },
  create: { call: (s) => s.addSeat, body: LicensePackageSeatCreateDto },
  update: { call: (s) => s.updateSeat, body: LicensePackageSeatUpdateDto },
})
@Controller('v1/license-packages')
export class LicensePackagesV1Controller {
  constructor(private readonly packages: LicensePackagesService) {}
}
