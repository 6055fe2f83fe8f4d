import { All, Controller } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { notFound } from '../../core/http/api-error';

/**
 * Unknown /v1 paths: the global guard authenticates the caller first (Bearer token or API key),
 * so a bad credential is a 401 and only an authenticated caller learns that a path does not exist.
 * Fastify's router prefers every static or parametric route, so this never shadows a real one.
 */
@ApiExcludeController()
@Controller('v1')
export class V1FallbackController {
  @All('*')
  notFound(): never {
    throw notFound('Not found.');
  }
}
