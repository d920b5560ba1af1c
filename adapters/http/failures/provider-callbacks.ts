import { errorCodes } from '../problem.js';

/** The providers' callbacks' own codes: their handshake and configuration (adapters/http/provider-callbacks.ts). */
export const PROVIDER_CALLBACK_CODES = errorCodes({
  WEBHOOK_VERIFICATION_FAILED: 403,
  WEBHOOK_NOT_CONFIGURED: 503,
});

export const PROVIDER_CALLBACK_FAILURES = { errorCodes: PROVIDER_CALLBACK_CODES.codes, failures: {} } as const;
