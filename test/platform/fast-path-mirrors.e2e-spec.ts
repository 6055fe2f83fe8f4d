import { Controller, Get, Injectable, Module, NestInterceptor, Post, UseGuards, UseInterceptors, type CallHandler, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FastPath, installFastPaths } from '../../src/core/routes/fast-path';

/**
 * A fast path answers before Nest's pipeline: it must not skip a guard or interceptor it does not
 * mirror (issue 26 point 5). installFastPaths refuses such a route when the routes are registered,
 * so the application does not start.
 */
@Injectable()
class DenyGuard implements CanActivate {
  canActivate() {
    return false;
  }
}

@Injectable()
class TagInterceptor implements NestInterceptor {
  intercept(_ctx: ExecutionContext, next: CallHandler) {
    return next.handle();
  }
}

const fast = (_req: FastifyRequest, reply: FastifyReply) => void reply.send({ fast: true });

async function boot(controller: Function): Promise<NestFastifyApplication> {
  @Module({ controllers: [controller as never], providers: [DenyGuard, TagInterceptor] })
  class M {}
  const app = await NestFactory.create<NestFastifyApplication>(M, new FastifyAdapter(), { logger: false, abortOnError: false });
  installFastPaths(app.getHttpAdapter().getInstance(), app);
  return app;
}

describe('fast paths and the pipeline they skip', () => {
  it('refuses to start when a fast path would skip a guard it does not mirror', async () => {
    @Controller('guarded')
    class GuardedController {
      @Get()
      @UseGuards(DenyGuard)
      @FastPath('fast')
      read() {
        return { slow: true };
      }
      fast = fast;
    }
    const app = await boot(GuardedController);
    await expect(app.init()).rejects.toThrow('GuardedController.read: its fast path fast would skip DenyGuard');
    await app.close().catch(() => undefined);
  });

  it('refuses an interceptor it does not mirror, on the controller too', async () => {
    @Controller('intercepted')
    @UseInterceptors(TagInterceptor)
    class InterceptedController {
      @Post()
      @FastPath('fast')
      write() {
        return { slow: true };
      }
      fast = fast;
    }
    const app = await boot(InterceptedController);
    await expect(app.init()).rejects.toThrow('InterceptedController.write: its fast path fast would skip TagInterceptor');
    await app.close().catch(() => undefined);
  });

  it('starts when the fast path declares it mirrors them, and then answers from it', async () => {
    @Controller('mirrored')
    class MirroredController {
      @Get()
      @UseGuards(DenyGuard)
      @FastPath('fast', { mirrors: [DenyGuard] })
      read() {
        return { slow: true };
      }
      fast = fast;
    }
    const app = await boot(MirroredController);
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
    const res = await app.getHttpAdapter().getInstance().inject({ method: 'GET', url: '/mirrored' });
    expect(res.json()).toEqual({ fast: true });
    await app.close();
  });
});
