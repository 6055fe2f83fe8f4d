import type { Type } from '@nestjs/common';
import { Extension } from '../../core/http/extension';
import { V1 } from '../../core/http/interfaces';
import { V1Resource } from '../../core/routes/v1-resource';

/** What a program's administrative service offers the controller (PlansAdminService, CourseSeriesAdminService). */
interface ProgramAdminService {
  create(...args: any[]): Promise<unknown>;
  update(...args: any[]): Promise<unknown>;
  remove(...args: any[]): Promise<void>;
}

/**
 * The /v1 administrative writes of a program of a domain (plans, course series; CONVENTIONS §15):
 * POST (create, body `create`), PUT (body `create`) and PATCH (body `patch`), DELETE (handler
 * `destroy`), each an extension operation described by `description`. Stands for the decorators
 * @V1(), @Extension(description) and @V1Resource(...) over @Controller, applied in that stacking order.
 */
export function ProgramAdminV1(spec: {
  service: Type<ProgramAdminService>;
  id: string;
  scopes: string;
  present: (row: any) => unknown;
  create: Type;
  patch: Type;
  description: string;
  /** the declared answer (the presenter's schema): the OpenAPI answer of the four operations */
  schema: Record<string, unknown>;
}): ClassDecorator {
  const resource = V1Resource<ProgramAdminService>({
    service: spec.service,
    id: spec.id,
    scopes: spec.scopes,
    present: spec.present,
    schema: spec.schema,
    create: { call: (s) => s.create, body: spec.create },
    update: { call: (s) => s.update, body: spec.create, patchBody: spec.patch },
    remove: { call: (s) => s.remove, handler: 'destroy' },
  });
  return (cls) => {
    resource(cls);
    Extension(spec.description)(cls);
    V1()(cls);
  };
}
