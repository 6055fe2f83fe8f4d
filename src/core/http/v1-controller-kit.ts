import { applyDecorators } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';

/**
 * More method decorators on handlers that a class decorator defines (@V1Resource's, @V2Batches'):
 * for each handler name, its decorators applied in the order given, after the handler's own. Put
 * it above the decorator that defines the handlers (class decorators apply bottom-up).
 */
export function OnHandlers(decorators: Record<string, MethodDecorator[]>): ClassDecorator {
  return (cls) => {
    const proto = cls.prototype as object;
    for (const [name, list] of Object.entries(decorators)) {
      const descriptor = Object.getOwnPropertyDescriptor(proto, name);
      if (!descriptor || typeof descriptor.value !== 'function') throw new Error(`@OnHandlers: ${cls.name}.${name} is not a handler`);
      for (const d of list) d(proto, name, descriptor);
    }
  };
}

/** The `page` and `page_size` query parameters of a /v1 list (page_size at most `cap`), documented in the OpenAPI operation. */
export const V1PageQuery = (cap: number): MethodDecorator =>
  applyDecorators(
    ApiQuery({ name: 'page', required: false, schema: { type: 'integer', minimum: 1 } }),
    ApiQuery({ name: 'page_size', required: false, schema: { type: 'integer', minimum: 1, maximum: cap } }),
  );
