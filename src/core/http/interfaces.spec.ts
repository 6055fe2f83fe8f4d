import 'reflect-metadata';
import { Controller, Get, Post } from '@nestjs/common';
import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';
import { RouteConfig } from '@nestjs/platform-fastify';
import { API_INTERFACE, OAuthApi, unknownRouteInterface, V1, V2 } from './interfaces';

describe('interface declarations', () => {
  it('@V2() marks the class and copies the interface into every handler route config, keeping existing config', () => {
    @V2()
    @Controller('v2/things')
    class Things {
      @Get()
      list() {}
      @RouteConfig({ other: 1 })
      @Post()
      create() {}
      helper() {}
    }
    expect(Reflect.getMetadata(API_INTERFACE, Things)).toBe('v2');
    expect(Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, Things.prototype.list)).toEqual({ api: 'v2' });
    expect(Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, Things.prototype.create)).toEqual({ other: 1, api: 'v2' });
    expect(Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, Things.prototype.helper)).toBeUndefined();
  });

  it('the declaration, not the path, decides', () => {
    @V1()
    @Controller('somewhere')
    class A {
      @Get()
      get() {}
    }
    @OAuthApi('register')
    @Controller('x')
    class B {
      @Post()
      post() {}
    }
    expect(Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, A.prototype.get)).toEqual({ api: 'v1' });
    expect(Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, B.prototype.post)).toEqual({ api: 'register' });
  });

  it('a request that matched no route falls back to its URL', () => {
    expect(unknownRouteInterface('/v2/auth/token')).toBe('oauth');
    expect(unknownRouteInterface('/v2/oauth/register?x=1')).toBe('register');
    expect(unknownRouteInterface('/v2/oauth/authorize')).toBe('authorize');
    expect(unknownRouteInterface('/v1/x')).toBe('v1');
    expect(unknownRouteInterface('/v2/x')).toBe('v2');
    expect(unknownRouteInterface('/health')).toBe('other');
  });
});
