import type { INestApplication } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { PUBLIC_KEY } from '../auth/decorators';
import { API_INTERFACE, ApiInterface } from '../http/interfaces';
import { completeRequestSchemas } from '../http/request-schemas';
import { completeDocument, CompletionReport, HandlerInfo } from './complete-document';

/**
 * GET /openapi.json (and /docs), built once at boot: @nestjs/swagger's description of the
 * controllers, the request bodies completed from the validation rules (core/http/request-schemas.ts),
 * then the completion step against the published documents (complete-document.ts), which serves
 * each published component a declaration covers as that declaration (served-components.ts;
 * docs/decisions/openapi.md).
 */
export function buildOpenApiDocument(app: INestApplication): { doc: OpenAPIObject; report: CompletionReport } {
  const doc = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Course Platform API')
      .setDescription(
        'The /v1 resource API and the /v2 API, with an OAuth 2.0 server. MCP server at `/mcp`: [its tools](/docs/mcp-tools).\n\n' +
          'Published operations carry the published operationId, tags and schemas; members and operations beyond the published API are marked `x-extension: true`. ' +
          '/v1 takes the organization API key as the Basic user name (empty password) or a bearer token; /v2 a bearer token (POST /v2/auth/token).',
      )
      .setVersion('2.0.0')
      .setOpenAPIVersion('3.1.0')
      .build(),
  );
  const controllers = [...app.get(ModulesContainer).values()].flatMap((m) => [...m.controllers.values()].map((w) => w.metatype as Function));
  // request DTOs without @ApiProperty: their members from their validation rules
  completeRequestSchemas(doc, controllers);
  const report = completeDocument(doc as any, handlersByOperation(controllers));
  return { doc, report };
}

/** Each handler by the operationId @nestjs/swagger gives it (`<Controller>_<method>`): its interface and whether it is public. */
export function handlersByOperation(controllers: Function[]): Map<string, HandlerInfo> {
  const out = new Map<string, HandlerInfo>();
  for (const cls of controllers) {
    if (typeof cls !== 'function') continue;
    const api = (Reflect.getMetadata(API_INTERFACE, cls) as ApiInterface | undefined) ?? 'other';
    const classPublic = Reflect.getMetadata(PUBLIC_KEY, cls) === true;
    for (const method of Object.getOwnPropertyNames(cls.prototype)) {
      if (method === 'constructor') continue;
      const handler = Object.getOwnPropertyDescriptor(cls.prototype, method)?.value;
      if (typeof handler !== 'function') continue;
      const own = Reflect.getMetadata(PUBLIC_KEY, handler) as boolean | undefined;
      out.set(`${cls.name}_${method}`, { handler: `${cls.name}.${method}`, api, isPublic: own ?? classPublic });
    }
  }
  return out;
}
