import { ApiResponse } from '@nestjs/swagger';

/**
 * The handler answers `status` without a body (a 200 or 202 that says nothing but its status): the
 * OpenAPI document declares that answer without content (marked `x-no-body: true`) instead of a
 * generic schema (core/openapi/complete-document.ts).
 */
export const NoBody = (status: number, description: string): MethodDecorator => ApiResponse({ status, description, 'x-no-body': true } as never);
