import { TITLES, V2_CODES } from '../http/api-error';
import type { ApiInterface } from '../http/interfaces';
import type { JsonSchema } from './published';

/**
 * The error envelopes each interface answers in, as renderError (core/routes/http-exception.filter.ts)
 * writes them, declared as component schemas, and the error responses of an operation.
 */
export const ERROR_SCHEMAS: Record<string, JsonSchema> = {
  V1Error: {
    type: 'object',
    description: '/v1 error: `{"detail"}` (Django REST framework). A 422 of the service is answered as 400.',
    required: ['detail'],
    properties: { detail: { type: 'string' } },
    example: { detail: 'Not found.' },
  },
  V1FieldErrors: {
    type: 'object',
    description: '/v1 validation error (Django REST framework): the messages of each refused member, under its name.',
    additionalProperties: { type: 'array', items: { type: 'string' } },
    example: { email: ['This field is required.'] },
  },
  JsonApiError: {
    type: 'object',
    required: ['status', 'code', 'title', 'detail'],
    properties: {
      status: { type: 'string', description: 'the HTTP status, as a string' },
      code: { type: 'string', enum: [...new Set(Object.values(V2_CODES))], description: 'machine-readable; a service may answer a more specific code' },
      title: { type: 'string' },
      detail: { type: 'string' },
      source: {
        type: 'object',
        properties: {
          pointer: { type: 'string', description: 'JSON pointer into the request body' },
          parameter: { type: 'string', description: 'the query parameter' },
          header: { type: 'string', description: 'the request header' },
        },
      },
    },
  },
  JsonApiErrors: {
    type: 'object',
    description: 'JSON:API error document (/v2 and the routes outside both interfaces).',
    required: ['errors'],
    properties: {
      errors: { type: 'array', minItems: 1, items: { $ref: '#/components/schemas/JsonApiError' } },
      meta: { type: 'object', properties: { request_id: { type: 'string' } } },
    },
    example: { errors: [{ status: '404', code: 'not_found', title: TITLES[404], detail: 'Student not found.' }], meta: { request_id: 'req_0123456789abcdef' } },
  },
  OAuthError: {
    type: 'object',
    description: 'RFC 6749 §5.2 error (token endpoints) or RFC 7591 §3.2.2 error (client registration).',
    required: ['error'],
    properties: {
      error: { type: 'string', examples: ['invalid_request', 'invalid_client', 'invalid_grant', 'unsupported_grant_type', 'invalid_scope', 'invalid_client_metadata'] },
      error_description: { type: 'string' },
    },
    example: { error: 'invalid_client', error_description: 'Client authentication failed.' },
  },
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The media type and schema of an interface's error answers. */
export function errorContent(api: ApiInterface, status: number): Record<string, { schema: JsonSchema }> {
  switch (api) {
    case 'v1':
      return { 'application/json': { schema: status === 400 ? { oneOf: [ref('V1FieldErrors'), ref('V1Error')] } : ref('V1Error') } };
    case 'oauth':
    case 'register':
      return { 'application/json': { schema: ref('OAuthError') } };
    default:
      return { 'application/vnd.api+json': { schema: ref('JsonApiErrors') } };
  }
}

/**
 * The errors an operation can answer: 400 (a body or query refused), 401 and 403 (not public),
 * 404 (a path parameter, or any /v1 route under a domain), 422 (a /v2 body refused by a rule), 429
 * (rate limits, core/http rate limiter) and 500.
 */
export function errorStatuses(api: ApiInterface, o: { isPublic: boolean; hasPathParams: boolean; hasInput: boolean }): number[] {
  const out: number[] = [];
  if (o.hasInput || api === 'oauth' || api === 'register') out.push(400);
  if (!o.isPublic || api === 'oauth') out.push(401);
  if (!o.isPublic) out.push(403);
  if (o.hasPathParams) out.push(404);
  if (o.hasInput && api !== 'v1' && api !== 'oauth' && api !== 'register') out.push(422);
  out.push(429, 500);
  return out;
}

export const STATUS_TEXT: Record<number, string> = { ...TITLES, 200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No Content', 207: 'Multi-Status (some items failed)', 302: 'Found' };
