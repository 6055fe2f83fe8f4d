import { All, Controller, Headers } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../../core/auth/decorators';
import { AuthService } from '../../core/auth/auth.service';
import { notFound } from '../../core/http/api-error';
import { V1 } from '../../core/http/interfaces';

/**
 * Unknown /v1 paths. Credentials that come with the request are checked first (Bearer token or
 * organization API key), so a bad key is a 401 while a good one reaches the 404; a request without
 * any credentials gets the plain 404 that unknown /v2 paths give too. Fastify's router prefers every
 * static or parametric route, so this never shadows a real one.
 */
@ApiExcludeController()
@V1()
@Controller('v1')
export class V1FallbackController {
  constructor(private readonly auth: AuthService) {}

  @Public()
  @All('*')
  async notFound(@Headers('authorization') authorization: string | undefined): Promise<never> {
    if (authorization !== undefined) await this.auth.authenticate(authorization, true);
    throw notFound('Not found.');
  }
}
