import { Body, Controller, Delete, Get, HttpCode, Options, Patch, Post, Put, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import type { FastifyReply } from 'fastify';
import { Public } from '../../core/auth/decorators';
import { fromConfig, RateLimitGuard } from '../../core/auth/rate-limit';
import { ApiError } from '../../core/http/api-error';
import { RegisterService, RegistrationResponse } from './register.service';
import { OAuthApi } from '../../core/http/interfaces';

const methodNotAllowed = () =>
  new ApiError(405, 'Method not allowed; register a client with POST.', { headers: { Allow: 'POST' }, oauthError: 'invalid_request' });

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
  async register(@Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply): Promise<RegistrationResponse> {
    reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
    return this.registrations.register(body);
  }

  // Every other method: 405 with Allow (HEAD comes with GET).
  @Public() @Get() @ApiExcludeEndpoint() get(): never { throw methodNotAllowed(); }
  @Public() @Put() @ApiExcludeEndpoint() put(): never { throw methodNotAllowed(); }
  @Public() @Patch() @ApiExcludeEndpoint() patch(): never { throw methodNotAllowed(); }
  @Public() @Delete() @ApiExcludeEndpoint() remove(): never { throw methodNotAllowed(); }
  @Public() @Options() @ApiExcludeEndpoint() options(): never { throw methodNotAllowed(); }
}
