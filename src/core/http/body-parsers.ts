import { parse as parseQueryString } from 'fast-querystring';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, badRequest, ValidationFailed } from './api-error';
import { readForm, type FormFields } from './form-bodies';
import type { ApiRouteConfig } from './interfaces';

/**
 * Every request body parser of the API, in one place (app.factory.ts creates the application with
 * Nest's `bodyParser: false`, so that the form parser is this one; the JSON parser is the one Nest
 * registered). Each parser runs only for its own content type: the JSON path has no step of the
 * form reading. Every body, whichever parser made it, then goes through the body guard
 * (body-guard.ts) and the route's validation.
 * - `application/json`: Fastify's JSON parser (prototype poisoning refused), as Nest registered it;
 * - `application/vnd.api+json`, `application/merge-patch+json`: JSON too; `application/scim+json` (SCIM, modules/scim) as well;
 * - `application/x-www-form-urlencoded`: parsed as before (fast-querystring, Nest's parser:
 *   `{name: value}`, repeated names `{name: [values]}`); on /v1 routes then read into the
 *   JSON-equivalent object with the route's body class (form-bodies.ts). Every other interface (the
 *   OAuth token endpoints, the authorization page) gets the flat object as it always did;
 * - `multipart/form-data`: /v1 routes only (elsewhere 415, as before), read by the platform's own
 *   multipart parser (undici's, `Response.formData()`) from the body Fastify has read within
 *   BODY_LIMIT_BYTES (413 beyond, as for any body), into the same flat object, then read as a
 *   url-encoded form is. A file part is refused (400 naming the part): no published /v1 write takes
 *   a file, and a member sent as a file would otherwise be dropped without a word.
 *   @fastify/multipart is not registered: it adds an async `onResponse` hook (and, to attach fields
 *   to the body, an async `preValidation` hook) to every route of the instance, a cost on every
 *   JSON request and GET; a body of at most 1 MiB needs no streaming.
 */
export const FILE_PART_REFUSED = 'File uploads are not accepted here: send this member as a text field.';

const configOf = (req: FastifyRequest) => req.routeOptions.config as ApiRouteConfig | undefined;

/** The fields of a multipart body (text parts; a file part is a field error). */
async function multipartFields(req: FastifyRequest, body: Buffer): Promise<FormFields> {
  let form: FormData;
  try {
    form = await new Response(body, { headers: { 'content-type': String(req.headers['content-type']) } }).formData();
  } catch {
    throw badRequest('Malformed multipart body.');
  }
  const fields: FormFields = Object.create(null);
  const files: string[] = [];
  for (const [name, value] of form) {
    if (typeof value !== 'string') {
      if (!files.includes(name)) files.push(name);
      continue;
    }
    const had = fields[name];
    fields[name] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
  }
  if (files.length)
    throw new ValidationFailed(
      files.map((name) => ({ field: name, pointer: `/${name}`, message: FILE_PART_REFUSED })),
      400,
    );
  return fields;
}

export function registerBodyParsers(fastify: FastifyInstance, bodyLimit: number): void {
  // the LRS (/xapi/, modules/lrs) stores documents of any content type and reads multipart/mixed
  // statements itself: any other content type there is the raw bytes; elsewhere 415, as before
  fastify.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (req, body, done) => {
    if (!req.url.startsWith('/xapi/')) return done(new ApiError(415, 'Unsupported content type.'), undefined);
    done(null, body);
  });
  const json = fastify.getDefaultJsonParser('error', 'error');
  // the default JSON parser takes a Buffer as well as a string (Nest parsed JSON as a Buffer)
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit }, json as unknown as (req: FastifyRequest, body: Buffer, done: (err: Error | null, body?: unknown) => void) => void);
  fastify.addContentTypeParser(['application/vnd.api+json', 'application/merge-patch+json', 'application/scim+json'], { parseAs: 'string', bodyLimit }, json);

  fastify.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer', bodyLimit }, (req, body, done) => {
    const fields = parseQueryString((body as Buffer).toString()) as FormFields;
    const config = configOf(req);
    if (config?.api !== 'v1') return done(null, fields);
    let read: Record<string, unknown>;
    try {
      read = readForm(fields, config.formBody);
    } catch (e) {
      return done(e as Error, undefined);
    }
    done(null, read);
  });

  fastify.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit }, (req, body, done) => {
    const config = configOf(req);
    if (req.url.startsWith('/xapi/')) return done(null, body); // the LRS refuses it itself, 400 as xAPI says
    if (config?.api !== 'v1') return done(new ApiError(415, 'Unsupported content type.'), undefined);
    multipartFields(req, body as Buffer)
      .then((fields) => readForm(fields, config.formBody))
      .then(
        (read) => done(null, read),
        (e: Error) => done(e, undefined),
      );
  });
}
