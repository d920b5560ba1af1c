import type { FieldError } from './codecs.js';
import { dateTimeJson } from './json-values.js';

/**
 * The error codes every module shares, and their HTTP status (API-DECISIONS "Errors"): the edge's
 * (parsing, authentication, routing, idempotency, limits, faults), not-found and validation, plan
 * limits, and the codes two modules' failures both answer. A module's own codes are declared with its
 * failures (adapters/http/failures/<module>.ts, `errorCodes`); the API's whole table is the fold of
 * these and every module's (bootstrap/failures.ts ERROR_CODES, docs/adr/0062).
 */
export const CORE_ERROR_CODES = {
  VALIDATION_FAILED: 400,
  MALFORMED_JSON: 400,
  TOKEN_MISSING: 401,
  TOKEN_INVALID: 401,
  TOKEN_EXPIRED: 401,
  ACCOUNT_DEACTIVATED: 401,
  SESSION_REVOKED: 401,
  WEBHOOK_SIGNATURE_INVALID: 401,
  API_KEY_MISSING: 401,
  API_KEY_INVALID: 401,
  API_KEY_EXPIRED: 401,
  FEATURE_NOT_AVAILABLE: 402,
  PLAN_LIMIT_EXCEEDED: 402,
  INSUFFICIENT_ROLE: 403,
  INSUFFICIENT_SCOPE: 403,
  RESOURCE_NOT_FOUND: 404,
  ROUTE_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  DUPLICATE_PHONE: 409,
  IDEMPOTENCY_IN_PROGRESS: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNKNOWN_BRANCH: 422,
  NEGATIVE_PRICE: 422,
  AMOUNT_MUST_NOT_BE_NEGATIVE: 422,
  AMOUNT_MUST_BE_POSITIVE: 422,
  IDEMPOTENCY_KEY_REUSED: 422,
  UNSUPPORTED_MEDIA_TYPE: 415,
  HEADERS_TOO_LARGE: 431,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  DATABASE_UNAVAILABLE: 503,
} as const;

export type CoreCode = keyof typeof CORE_ERROR_CODES;
/** A code some module (or the core) declares; the folded ERROR_CODES (bootstrap/failures.ts) holds them all. */
export type ErrorCode = string;
/** Error codes and their HTTP statuses. */
export type ErrorCodeTable = Readonly<Record<string, number>>;

const STATUS: Record<number, { slug: string; title: string }> = {
  400: { slug: 'validation', title: 'Bad Request' },
  401: { slug: 'authentication', title: 'Unauthorized' },
  402: { slug: 'payment-required', title: 'Payment Required' },
  403: { slug: 'forbidden', title: 'Forbidden' },
  404: { slug: 'resource-not-found', title: 'Resource Not Found' },
  405: { slug: 'method-not-allowed', title: 'Method Not Allowed' },
  409: { slug: 'conflict', title: 'Conflict' },
  413: { slug: 'payload-too-large', title: 'Payload Too Large' },
  415: { slug: 'unsupported-media-type', title: 'Unsupported Media Type' },
  422: { slug: 'unprocessable', title: 'Unprocessable Entity' },
  429: { slug: 'rate-limit', title: 'Too Many Requests' },
  431: { slug: 'headers-too-large', title: 'Request Header Fields Too Large' },
  500: { slug: 'internal', title: 'Internal Server Error' },
  503: { slug: 'unavailable', title: 'Service Unavailable' },
};

export const statusInfo = (status: number) => STATUS[status] ?? { slug: 'error', title: 'Error' };

/** A failure answered as Problem Details. Thrown or returned by handlers; rendered in one place. */
export class Problem<C extends ErrorCode = ErrorCode> extends Error {
  constructor(
    readonly code: C,
    readonly status: number,
    readonly detail: string,
    readonly extra: { errors?: FieldError[]; headers?: Record<string, string> } = {},
  ) {
    // An answer, not a fault: nobody reads its stack, and capturing one was most of what a refused
    // sale's 409 cost to build.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(detail);
    Error.stackTraceLimit = limit;
  }
}

/** A problem with one of the shared codes. */
export const problem = <C extends CoreCode>(code: C, detail: string, extra?: Problem['extra']): Problem<C> => new Problem(code, CORE_ERROR_CODES[code], detail, extra);

/**
 * A module's own error codes (code to HTTP status), and the `problem` its failures and routes build
 * answers with: one of these codes or a shared one, its status known at once.
 */
export const errorCodes = <const T extends Readonly<Record<string, number>>>(own: T) => {
  const table: ErrorCodeTable = { ...CORE_ERROR_CODES, ...own };
  const moduleProblem = <C extends (keyof T & string) | CoreCode>(code: C, detail: string, extra?: Problem['extra']): Problem<C> => new Problem(code, table[code]!, detail, extra);
  return { codes: own, problem: moduleProblem };
};

/** The envelope of an error (spec 7, API-DECISIONS "Errors"). */
export const problemBody = (p: Problem, typeBase: string, instance: string, now: Date) => {
  const { slug, title } = statusInfo(p.status);
  return {
    success: false as const,
    message: p.detail,
    error: {
      type: `${typeBase}/${slug}`,
      title,
      status: p.status,
      detail: p.detail,
      instance,
      code: p.code,
      ...(p.extra.errors ? { errors: p.extra.errors } : {}),
    },
    timestamp: dateTimeJson(now),
  };
};
