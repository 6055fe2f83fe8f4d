import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Put, Query, Type } from '@nestjs/common';
import { ApiQuery, ApiTags } from '@nestjs/swagger';
import { V1_UPDATED_SINCE_QUERY, v1UpdatedSince } from '../../core/pagination/updated-since';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { V1 } from '../../core/http/interfaces';
import { Paged, V1_PAGE_CAP, V1Page, V1PageRequest } from '../../core/pagination/v1-page';
import { NameRequest, PatchedNameRequest } from './dto/label-tag.dto';
import { LabelsService, presentLabel } from './labels.service';
import { presentTag, TagsService } from './tags.service';

/** What the labels and the tags services share: the organization's rows with a unique name. */
export interface NamedRowsService<T> {
  /** with `updatedSince` (/v1 `updated_since`): the rows changed at or after it, by last change */
  list(p: Principal, page: V1PageRequest, updatedSince?: Date): Promise<{ rows: T[]; count: number }>;
  get(p: Principal, id: string): Promise<T>;
  create(p: Principal, name: string): Promise<T>;
  update(p: Principal, id: string, name: string | undefined): Promise<T>;
  delete(p: Principal, id: string): Promise<void>;
}

interface NamedRows<T> {
  /** the controller's class name (the OpenAPI operation ids are `<class>_<method>`) */
  className: string;
  /** path segment, OpenAPI tag and scope family */
  family: 'labels' | 'tags';
  idParam: string;
  service: Type<NamedRowsService<T>>;
  present: (row: T) => object;
}

/**
 * The /v1 controller of a family of named rows (`/v1/labels`, `/v1/tags`): `<family>:read` /
 * `<family>:write`, pages of up to 1000 (section 8), `updated_since` on the list (an extension); the name
 * is required on create and PUT.
 */
function namedRowsV1Controller<T>(r: NamedRows<T>): Type<unknown> {
  @V1()
  @ApiTags(`v1 ${r.family}`)
  @Controller(`v1/${r.family}`)
  class NamedRowsV1Controller {
    constructor(@Inject(r.service) private readonly rows: NamedRowsService<T>) {}

    @Get()
    @Scopes(`${r.family}:read`)
    @ApiQuery(V1_UPDATED_SINCE_QUERY)
    async list(@Auth() p: Principal, @Query() query: Record<string, unknown>, @Paged(V1_PAGE_CAP.large) page: V1Page) {
      const { rows, count } = await this.rows.list(p, page, v1UpdatedSince(query));
      return page.list(rows.map(r.present), count);
    }

    @Post()
    @Scopes(`${r.family}:write`)
    async create(@Auth() p: Principal, @Body() dto: NameRequest) {
      return r.present(await this.rows.create(p, dto.name!));
    }

    @Get(`:${r.idParam}`)
    @Scopes(`${r.family}:read`)
    async read(@Auth() p: Principal, @Param(r.idParam) id: string) {
      return r.present(await this.rows.get(p, id));
    }

    @Put(`:${r.idParam}`)
    @Scopes(`${r.family}:write`)
    async update(@Auth() p: Principal, @Param(r.idParam) id: string, @Body() dto: NameRequest) {
      return r.present(await this.rows.update(p, id, dto.name));
    }

    @Patch(`:${r.idParam}`)
    @Scopes(`${r.family}:write`)
    async partialUpdate(@Auth() p: Principal, @Param(r.idParam) id: string, @Body() dto: PatchedNameRequest) {
      return r.present(await this.rows.update(p, id, dto.name));
    }

    @Delete(`:${r.idParam}`)
    @HttpCode(204)
    @Scopes(`${r.family}:write`)
    async remove(@Auth() p: Principal, @Param(r.idParam) id: string) {
      await this.rows.delete(p, id);
    }
  }
  Object.defineProperty(NamedRowsV1Controller, 'name', { value: r.className });
  return NamedRowsV1Controller;
}

export const LabelsV1Controller = namedRowsV1Controller({ className: 'LabelsV1Controller', family: 'labels', idParam: 'label_id', service: LabelsService, present: presentLabel });
export const TagsV1Controller = namedRowsV1Controller({ className: 'TagsV1Controller', family: 'tags', idParam: 'tag_id', service: TagsService, present: presentTag });
