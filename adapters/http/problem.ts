import type { FieldError } from './codecs.js';
import { dateTimeJson } from './json-values.js';

/** Every error code the API answers with, and its HTTP status (API-DECISIONS "Errors"). */
export const ERROR_CODES = {
  VALIDATION_FAILED: 400,
  MALFORMED_JSON: 400,
  INVALID_OTP: 400,
  OTP_EXPIRED: 400,
  BUSINESS_NAME_REQUIRED: 400,
  TOKEN_MISSING: 401,
  TOKEN_INVALID: 401,
  TOKEN_EXPIRED: 401,
  REFRESH_TOKEN_INVALID: 401,
  ACCOUNT_DEACTIVATED: 401,
  SESSION_REVOKED: 401,
  INVITATION_EXPIRED: 401,
  GOOGLE_TOKEN_INVALID: 401,
  GOOGLE_TOKEN_EXPIRED: 401,
  GOOGLE_EMAIL_NOT_VERIFIED: 401,
  WEBHOOK_SIGNATURE_INVALID: 401,
  API_KEY_MISSING: 401,
  API_KEY_INVALID: 401,
  API_KEY_EXPIRED: 401,
  FEATURE_NOT_AVAILABLE: 402,
  LOAN_PACK_PAYMENT_REQUIRED: 402,
  PLAN_LIMIT_EXCEEDED: 402,
  INSUFFICIENT_ROLE: 403,
  WEBHOOK_VERIFICATION_FAILED: 403,
  WRONG_BRANCH: 403,
  INSUFFICIENT_SCOPE: 403,
  RESOURCE_NOT_FOUND: 404,
  ROUTE_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  DUPLICATE_PHONE: 409,
  DUPLICATE_EMAIL: 409,
  ALREADY_A_MEMBER: 409,
  DEFAULT_BRANCH_PROTECTED: 409,
  LAST_OWNER: 409,
  CANNOT_DEACTIVATE_SELF: 409,
  DUPLICATE_SKU: 409,
  CLIENT_ID_CONFLICT: 409,
  PROVISIONAL_RECEIPT_NUMBER_TAKEN: 409,
  CONFLICT_ALREADY_RESOLVED: 409,
  INSUFFICIENT_STOCK: 409,
  BRANCH_HAS_STOCK: 409,
  IDEMPOTENCY_IN_PROGRESS: 409,
  SALE_ALREADY_VOIDED: 409,
  DUPLICATE_CATEGORY: 409,
  CATEGORY_IN_USE: 409,
  GOOGLE_ACCOUNT_IN_USE: 409,
  GOOGLE_ACCOUNT_MISMATCH: 409,
  NO_PAYMENT_DUE: 409,
  ALREADY_IN_PARTNER_NETWORK: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNKNOWN_BRANCH: 422,
  NEGATIVE_PRICE: 422,
  AMOUNT_MUST_NOT_BE_NEGATIVE: 422,
  AMOUNT_MUST_BE_POSITIVE: 422,
  QUANTITY_MUST_NOT_BE_NEGATIVE: 422,
  SERVICE_HAS_NO_STOCK: 422,
  IDEMPOTENCY_KEY_REUSED: 422,
  UNKNOWN_PRODUCT: 422,
  UNKNOWN_CUSTOMER: 422,
  UNKNOWN_SALE: 422,
  CUSTOMER_HAS_NO_PHONE: 422,
  CUSTOMER_OPTED_OUT: 422,
  NOTHING_OWED: 422,
  CUSTOMER_REQUIRED: 422,
  CREDIT_LIMIT_EXCEEDED: 422,
  OVERPAYMENT: 422,
  DISCOUNT_TOO_LARGE: 422,
  AMOUNT_PAID_EXCEEDS_TOTAL: 422,
  AMOUNT_TENDERED_TOO_SMALL: 422,
  PAYMENTS_DO_NOT_MATCH_TOTAL: 422,
  VAT_EXCEEDS_AMOUNT: 422,
  TIN_REQUIRED: 422,
  PRODUCT_ARCHIVED: 422,
  AMOUNT_TOO_LARGE: 422,
  STOCK_LIMIT_EXCEEDED: 422,
  CREDIT_BALANCE_LIMIT_EXCEEDED: 422,
  UNKNOWN_CATEGORY: 422,
  SPENT_ON_IN_FUTURE: 422,
  PAYER_EMAIL_REQUIRED: 422,
  PAYMENT_AMOUNT_MISMATCH: 422,
  UNKNOWN_PARTNER_CODE: 422,
  WEBHOOK_URL_NOT_ALLOWED: 422,
  RECIPIENT_NOT_ALLOWED: 422,
  UNSUPPORTED_MEDIA_TYPE: 415,
  HEADERS_TOO_LARGE: 431,
  RATE_LIMITED: 429,
  OTP_RESEND_TOO_SOON: 429,
  OTP_HOURLY_LIMIT: 429,
  INTERNAL: 500,
  DATABASE_UNAVAILABLE: 503,
  GOOGLE_SIGN_IN_NOT_CONFIGURED: 503,
  GOOGLE_UNAVAILABLE: 503,
  PAYMENT_GATEWAY_UNAVAILABLE: 503,
  WEBHOOK_NOT_CONFIGURED: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

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
export class Problem extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly extra: { errors?: FieldError[]; headers?: Record<string, string> } = {},
  ) {
    // An answer, not a fault: nobody reads its stack, and capturing one was most of what a refused
    // sale's 409 cost to build.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(detail);
    Error.stackTraceLimit = limit;
    this.status = ERROR_CODES[code];
  }
}

export const problem = (code: ErrorCode, detail: string, extra?: Problem['extra']) => new Problem(code, detail, extra);

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
