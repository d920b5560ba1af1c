import { isDeepStrictEqual } from 'node:util';
import type * as t from 'io-ts';
import { jsonSchemaOf, type JsonSchema } from './codecs.js';
import { statusInfo, type ErrorCode } from './problem.js';
import type { RouteDef } from './route.js';
import { codesOfFailures, type FailureTable } from './failure-codes.js';
import { ROLES } from '../../domain/roles.js';

/** The error codes a route can answer, its own, its failures' (by the folded table, bootstrap/failures.ts) and those that come with its kind. */
export const errorCodesOf = (r: RouteDef<any, any>, failures: FailureTable): ErrorCode[] => {
  const codes = new Set<ErrorCode>([...r.errors, ...codesOfFailures(failures, r.failures ?? [])]);
  if (r.query) codes.add('VALIDATION_FAILED');
  if (r.path.includes(':')) codes.add('RESOURCE_NOT_FOUND');
  if (r.body) ['VALIDATION_FAILED', 'MALFORMED_JSON', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'].forEach((c) => codes.add(c as ErrorCode));
  if (r.rawBody) ['VALIDATION_FAILED', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'].forEach((c) => codes.add(c as ErrorCode));
  const access = r.access;
  if (access !== 'public' && 'roles' in access) {
    ['TOKEN_MISSING', 'TOKEN_INVALID', 'TOKEN_EXPIRED', 'SESSION_REVOKED', 'ACCOUNT_DEACTIVATED'].forEach((c) => codes.add(c as ErrorCode));
    if (ROLES.some((role) => !access.roles.includes(role))) codes.add('INSUFFICIENT_ROLE');
  }
  if (access !== 'public' && 'partnerScope' in access) ['API_KEY_MISSING', 'API_KEY_INVALID', 'API_KEY_EXPIRED', 'INSUFFICIENT_SCOPE'].forEach((c) => codes.add(c as ErrorCode));
  if (r.rateLimit !== 'none') codes.add('RATE_LIMITED');
  if (r.idempotent) ['IDEMPOTENCY_IN_PROGRESS', 'IDEMPOTENCY_KEY_REUSED'].forEach((c) => codes.add(c as ErrorCode));
  codes.add('INTERNAL');
  codes.add('DATABASE_UNAVAILABLE');
  return [...codes];
};

export const openApiPath = (koaPath: string) => koaPath.replace(/:(\w+)/g, '{$1}');

const rateLimitHeaders = {
  'RateLimit-Limit': { schema: { type: 'integer', minimum: 1 }, description: 'requests allowed in the window' },
  'RateLimit-Remaining': { schema: { type: 'integer', minimum: 0 }, description: 'requests left in the window' },
  'RateLimit-Reset': { schema: { type: 'integer', minimum: 0 }, description: 'seconds until the window resets' },
};

/** A route's other media types (success.alternatives): a file described in words, or a body with its own schema. */
const alternativeContent = (r: RouteDef<any, any>) =>
  Object.fromEntries(
    Object.entries(r.success.alternatives ?? {}).map(([type, alt]) => [
      type,
      { schema: typeof alt === 'string' ? { type: 'string', format: 'binary', contentMediaType: type, description: alt } : { ...jsonSchemaOf(alt.data), description: alt.description } },
    ]),
  );

/** OpenAPI 3.1 document built from the same route table the router is built from. */
export const buildOpenApi = (routes: readonly RouteDef<any, any>[], info: { version: string; errorTypeBase: string; failures: FailureTable }) => {
  const ERROR_CODES = info.failures.errorCodes;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const responses: Record<string, unknown> = {
      [r.success.status]: {
        description: r.success.description,
        ...(r.rateLimit !== 'none' || r.success.headers || r.idempotent
          ? { headers: { ...(r.rateLimit !== 'none' ? rateLimitHeaders : {}), ...(r.idempotent ? idempotentReplayedHeader : {}), ...successHeaders(r) } }
          : {}),
        content: r.success.contentType
          ? { [r.success.contentType]: { schema: jsonSchemaOf(r.success.data) }, ...alternativeContent(r) }
          : {
              'application/json': { schema: successEnvelope(jsonSchemaOf(r.success.data)) },
              // the other media types the Accept header (or a download's format parameter) can ask for: a file, described in words
              ...alternativeContent(r),
            },
      },
    };
    const byStatus = new Map<number, ErrorCode[]>();
    const errorCodes = errorCodesOf(r, info.failures);
    for (const code of errorCodes) {
      const status = ERROR_CODES[code];
      // a code no module declares (a typo in a route's `errors`) would be documented under no status
      if (status === undefined) throw new Error(`${r.method.toUpperCase()} ${r.path} answers ${code}, which no module declares (its failures' errorCodes)`);
      byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
    }
    for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
      const also = r.alsoAnswers?.status === status ? `${r.alsoAnswers.description}. ` : '';
      responses[status] = {
        description: `${also}${statusInfo(status).title}: error.code is one of ${codes.join(', ')}`,
        ...(status === 429 || status === 503 ? { headers: { 'Retry-After': { schema: { type: 'integer', minimum: 1 }, description: 'seconds to wait before retrying' } } } : {}),
        content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
      };
    }
    const pathParams = [...r.path.matchAll(/:(\w+)/g)].map((m) => {
      const custom = r.pathParams?.[m[1]!];
      return {
        name: m[1],
        in: 'path',
        required: true,
        schema: custom ? { type: 'string', pattern: custom.pattern.source } : { type: 'string', format: 'uuid' },
        description: custom ? `${custom.description}; a malformed value is answered 404` : 'a malformed id is answered 404',
      };
    });
    const queryParams = r.query ? queryParameters(r.query) : [];
    const headerParams = r.idempotent ? [idempotencyKeyParameter] : [];
    const parameters = [...pathParams, ...queryParams, ...headerParams];
    const operation: Record<string, unknown> = {
      operationId: r.operationId,
      summary: r.summary,
      description: operationDescription(r, errorCodes),
      tags: [r.tag],
      security: securityOf(r),
      ...(r.access !== 'public' && 'roles' in r.access ? { 'x-roles': r.access.roles } : {}),
      ...(r.access !== 'public' && 'partnerScope' in r.access ? { 'x-partner-scope': r.access.partnerScope } : {}),
      'x-error-codes': errorCodes,
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(r.body
        ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchemaOf(r.body), ...(r.bodyExample !== undefined ? { example: r.bodyExample } : {}) } } } }
        : {}),
      ...(r.rawBody
        ? {
            requestBody: {
              required: true,
              description: r.rawBody.description,
              content: Object.fromEntries(Object.entries(r.rawBody.content).map(([type, schema]) => [type, { schema }])),
            },
          }
        : {}),
      responses,
    };
    (paths[openApiPath(r.path)] ??= {})[r.method] = operation;
  }

  const schemas: Record<string, JsonSchema> = { ErrorEnvelope: errorEnvelope(), Problem: problemSchema(info.errorTypeBase, Object.keys(ERROR_CODES)) };
  const namedPaths = hoistNamedSchemas(paths, schemas) as typeof paths;
  return {
    openapi: '3.1.0',
    info: {
      title: 'Business Operations API',
      version: info.version,
      description:
        'Products and stock per branch, sales, customers and credit, expenses, reports and loan packs, and notifications for Nigerian small businesses. Every response is wrapped in ' +
        '`{success, message, data | error, timestamp}`; errors are Problem Details with a machine-readable `error.code`. ' +
        'Money is a JSON number in naira with at most 2 decimals; times are ISO 8601 UTC. ' +
        'A sum in a report or analytics may pass 90 trillion naira (2^53 kobo): it is written with its exact digits, so parse it as a decimal if you need it exact beyond that.',
    },
    servers: [{ url: '/api/v1' }],
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name })),
    paths: namedPaths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Access token from /auth/verify-otp or /auth/refresh' },
        partnerApiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'X-API-Key',
          description:
            "A partner's API key (`pk_live_...`), shown once when made (operator CLI `partner:create`, or POST /partner/api-keys). " +
            'Partner routes take only this key (a bearer token there is 401); merchant routes take only a bearer token.',
        },
      },
      schemas,
    },
  };
};

/** A query codec (a strict object of optional string parameters) as OpenAPI query parameters. */
const queryParameters = (codec: t.Mixed) => {
  const schema = jsonSchemaOf(codec) as { properties: Record<string, Record<string, unknown>>; required: string[] };
  return Object.entries(schema.properties).map(([name, s]) => {
    const { description, ...rest } = s;
    return { name, in: 'query', required: schema.required.includes(name), schema: rest, ...(description ? { description } : {}) };
  });
};

const successHeaders = (r: RouteDef<any, any>) =>
  Object.fromEntries(Object.entries(r.success.headers ?? {}).map(([name, description]) => [name, { schema: { type: 'string' }, description }]));

const successEnvelope = (data: Record<string, unknown>) => ({
  type: 'object',
  required: ['success', 'message', 'data', 'timestamp'],
  properties: { success: { const: true }, message: { type: 'string' }, data, timestamp: { type: 'string', format: 'date-time' } },
});

/** The Problem Details of an error (the envelope's `error`; a rejected sync operation's `error`): `#/components/schemas/Problem`. */
export const PROBLEM_REF = { $ref: '#/components/schemas/Problem' } as const;

const errorEnvelope = (): JsonSchema => ({
  type: 'object',
  required: ['success', 'message', 'error', 'timestamp'],
  properties: {
    success: { const: false },
    message: { type: 'string' },
    data: { description: 'only on the health check: the health report' },
    error: PROBLEM_REF,
    timestamp: { type: 'string', format: 'date-time' },
  },
});

const problemSchema = (errorTypeBase: string, codes: readonly string[]): JsonSchema => ({
  type: 'object',
  required: ['type', 'title', 'status', 'detail', 'instance', 'code'],
  properties: {
    type: { type: 'string', format: 'uri-reference', examples: [`${errorTypeBase}/validation`] },
    title: { type: 'string' },
    status: { type: 'integer', minimum: 400, maximum: 599 },
    detail: { type: 'string' },
    instance: { type: 'string', description: 'the request path' },
    code: { type: 'string', enum: codes },
    errors: {
      type: 'array',
      description: 'on 400 and 422: what is wrong with which field',
      items: { type: 'object', required: ['field', 'message'], properties: { field: { type: 'string' }, message: { type: 'string' } } },
    },
  },
});

const idempotencyKeyParameter = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  schema: { type: 'string', minLength: 1, maxLength: 255 },
  description:
    'Any unique string (a UUID is best) naming this attempt. A retry with the same key and body answers the first answer again ' +
    '(with `Idempotent-Replayed: true`) instead of doing the work twice; the same key with another request (body, query or uploaded file) is 422 IDEMPOTENCY_KEY_REUSED, ' +
    'and while the first is still running 409 IDEMPOTENCY_IN_PROGRESS. Keys are kept 24 hours.',
  example: '6f1c2d3e-4b5a-4c6d-8e9f-0a1b2c3d4e5f',
};

const idempotentReplayedHeader = {
  'Idempotent-Replayed': { schema: { type: 'string', enum: ['true'] }, description: 'present when this answer is the stored answer to an earlier request with the same Idempotency-Key' },
};

/** The credential an operation takes: none, a user's bearer token, or a partner's API key. */
export const securityOf = (r: RouteDef<any, any>) => (r.access === 'public' ? [] : 'roles' in r.access ? [{ bearerAuth: [] }] : [{ partnerApiKey: [] }]);

/** Who may call an operation, in words a client developer reads first. */
const whoMayCall = (r: RouteDef<any, any>): string => {
  if (r.access === 'public') return 'Public: no token needed.';
  if ('partnerScope' in r.access) return `Partners, with an API key (X-API-Key) holding the scope \`${r.access.partnerScope}\`; a key without it gets 403 INSUFFICIENT_SCOPE.`;
  const roles = r.access.roles;
  return ROLES.every((role) => roles.includes(role))
    ? 'Owners and staff of the business (bearer token).'
    : `${roles.map((role) => (role === 'BUSINESS_OWNER' ? 'Owners' : 'Staff')).join(' and ')} only (bearer token); others get 403 INSUFFICIENT_ROLE.`;
};

/** The operation's own text, who may call it, and the error codes it can answer. */
const operationDescription = (r: RouteDef<any, any>, codes: readonly ErrorCode[]) =>
  [r.description ?? `${r.summary}.`, `**Who may call it:** ${whoMayCall(r)}`, `**Error codes:** ${codes.join(', ')}.`].join('\n\n');

/**
 * Every titled schema under the paths (a named codec, see `named`) becomes `components.schemas[title]` and is
 * referred to by `$ref`, so a generated client has `Product`, `Sale`, ... to import. A name stands for one schema:
 * two different schemas with one name are a bug in the route table and stop the document being built.
 */
const hoistNamedSchemas = (node: unknown, schemas: Record<string, JsonSchema>): unknown => {
  if (Array.isArray(node)) return node.map((n) => hoistNamedSchemas(n, schemas));
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  // examples are values, not schemas: a value with a `title` key stays as it is
  for (const [k, v] of Object.entries(node)) out[k] = k === 'example' || k === 'examples' ? v : hoistNamedSchemas(v, schemas);
  const title = out.title;
  if (typeof title !== 'string' || !('type' in out || 'oneOf' in out)) return out;
  const existing = schemas[title];
  if (existing && !isDeepStrictEqual(existing, out)) throw new Error(`two different schemas are named ${title}: ${JSON.stringify(existing)} and ${JSON.stringify(out)}`);
  schemas[title] = out;
  return { $ref: `#/components/schemas/${title}` };
};
