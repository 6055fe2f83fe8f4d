import { METHOD_METADATA } from '@nestjs/common/constants';
import { ApiExtension, ApiOperation } from '@nestjs/swagger';

/** @nestjs/swagger's metadata key of @ApiOperation (its constants are not exported by the package). */
const API_OPERATION = 'swagger/apiOperation';

/**
 * Operations beyond the published documents (CONVENTIONS §15, administrative writes): each carries
 * the vendor key `x-extension: true` in the OpenAPI document and a description that starts with
 * "Extension (not in the published API):", so a reader or a generated client can tell them from the
 * published operations. Put it on a controller between @V1() (which adds the PATCH twins, copying
 * this metadata) and the decorators that declare the handlers (@V1Resource, then @Controller): it
 * marks every handler the class has at that point.
 */
export function Extension(description: string): ClassDecorator {
  return (target) => {
    const proto = (target as unknown as { prototype: Record<string, unknown> }).prototype;
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name === 'constructor') continue;
      const descriptor = Object.getOwnPropertyDescriptor(proto, name);
      const handler = descriptor?.value;
      if (typeof handler !== 'function' || Reflect.getMetadata(METHOD_METADATA, handler) === undefined) continue;
      ApiExtension('x-extension', true)(proto, name, descriptor!);
      const op = Reflect.getMetadata(API_OPERATION, handler) as { description?: string } | undefined;
      ApiOperation({ ...op, description: `Extension (not in the published API): ${op?.description ?? description}` })(proto, name, descriptor!);
    }
  };
}

/**
 * Members beyond a published operation's schema (a published operation that also takes extension
 * members, such as `rating` and `feedback` on the enrollment PATCH): `x-extension-members` lists them.
 */
export const ExtensionMembers = (members: string[]): MethodDecorator => ApiExtension('x-extension-members', members);
