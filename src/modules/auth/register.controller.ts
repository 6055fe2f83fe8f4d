import { Body, Controller, Delete, Get, HttpCode, Options, Patch, Post, Put, Res, UseGuards } from '@nestjs/common';
import { ApiBody, ApiExcludeEndpoint, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import type { FastifyReply } from 'fastify';
import { Public } from '../../core/auth/decorators';
import { fromConfig, RateLimitGuard } from '../../core/auth/rate-limit';
import { ApiError } from '../../core/http/api-error';
import { AUTH_METHODS, REGISTRABLE_GRANTS, REGISTRABLE_RESPONSE_TYPES, RegisterService, RegistrationResponse } from './register.service';
import { OAuthApi } from '../../core/http/interfaces';

const methodNotAllowed = () => new ApiError(405, 'Method not allowed; register a client with POST.', { headers: { Allow: 'POST' }, oauthError: 'invalid_request' });

/** RFC 7591 dynamic client registration: open, rate-limited per IP, errors as `{error, error_description}`. */
@ApiTags('oauth')
@OAuthApi('register')
@Controller('v2/oauth/register')
export class RegisterController {
  constructor(private readonly registrations: RegisterService) {}

  @Public()
  @Post()
  @HttpCode(201)
  @UseGuards(RateLimitGuard)
  @Throttle({ default: { limit: fromConfig('REGISTER_RATE_LIMIT'), ttl: fromConfig('REGISTER_RATE_WINDOW_SECONDS', 1000) } })
  @ApiOperation({ summary: 'Dynamically register an OAuth2 client (RFC 7591)' })
  @ApiBody({
    description: 'RFC 7591 client metadata (the published DynamicClientRegistrationRequest); redirect_uris are checked by the service (400 invalid_redirect_uri)',
    schema: {
      type: 'object',
      required: ['client_name', 'redirect_uris'],
      properties: {
        client_name: { type: 'string', minLength: 1, maxLength: 255 },
        redirect_uris: { type: 'array', minItems: 1, maxItems: 10, items: { type: 'string', maxLength: 2000 } },
        grant_types: { anyOf: [{ type: 'array', items: { type: 'string', enum: [...REGISTRABLE_GRANTS] } }, { type: 'null' }], description: 'must include authorization_code; default both' },
        response_types: { anyOf: [{ type: 'array', items: { type: 'string', enum: [...REGISTRABLE_RESPONSE_TYPES] } }, { type: 'null' }] },
        token_endpoint_auth_method: { type: 'string', enum: [...AUTH_METHODS], default: 'client_secret_post', description: 'none for a public client (PKCE)' },
        scope: { anyOf: [{ type: 'string' }, { type: 'null' }], description: 'space-separated scopes; default all' },
        resource: { type: 'string', default: '' },
      },
    },
  })
  async register(@Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply): Promise<RegistrationResponse> {
    reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
    return this.registrations.register(body);
  }

  // Every other method: 405 with Allow (HEAD comes with GET).
  @Public() @Get() @ApiExcludeEndpoint() get(): never {
    throw methodNotAllowed();
  }
  @Public() @Put() @ApiExcludeEndpoint() put(): never {
    throw methodNotAllowed();
  }
  @Public() @Patch() @ApiExcludeEndpoint() patch(): never {
    throw methodNotAllowed();
  }
  @Public() @Delete() @ApiExcludeEndpoint() remove(): never {
    throw methodNotAllowed();
  }
  @Public() @Options() @ApiExcludeEndpoint() options(): never {
    throw methodNotAllowed();
  }
}
