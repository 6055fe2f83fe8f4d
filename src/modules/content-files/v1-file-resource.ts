import type { Type } from '@nestjs/common';
import type { AppConfig } from '../../core/config/config';
import { V1Resource } from '../../core/routes/v1-resource';
import { V1_PAGE_CAP } from '../../core/pagination/v1-page';

/** How an uploaded file's object is presented: without its download URL, or with it (links on the request's base URL). */
type PresentFile<R> = (row: R, config: AppConfig, opts: { withDownload: false } | { withDownload: true; baseUrl: string }) => unknown;

/**
 * The /v1 operations of an uploaded content file (assets, web packages): list (caller-set
 * page_size, capped at 100), create, read (with its download URL), delete; the service's `list`,
 * `create`, `get` and `delete`. The controller holds the service at `service` and the AppConfig at `config`.
 */
/** What the service offers: list, create, get, delete. */
interface FileService {
  list(...args: any[]): Promise<unknown>;
  create(...args: any[]): Promise<unknown>;
  get(...args: any[]): Promise<unknown>;
  delete(...args: any[]): Promise<unknown>;
}

export function V1FileResource<S extends FileService, R>(spec: { service: Type<S>; id: string; scopes: string; body: Type; present: PresentFile<R> }): ClassDecorator {
  const { service, id, scopes, body, present } = spec;
  return V1Resource<S>({
    service,
    id,
    scopes,
    present: (row: R, ctl: { config: AppConfig }) => present(row, ctl.config, { withDownload: false }),
    list: { call: (s) => s.list, cap: V1_PAGE_CAP.small },
    create: { call: (s) => s.create, body },
    read: { call: (s) => s.get, handler: 'read', baseUrl: true, present: (row: R, ctl: { config: AppConfig }, baseUrl: string) => present(row, ctl.config, { withDownload: true, baseUrl }) },
    remove: { call: (s) => s.delete, handler: 'remove' },
  });
}
