import * as t from 'io-ts';
import type { LoanPack } from '../../../application/loan-packs/ports.js';
import type { VerifiedLoanPack } from '../../../application/loan-packs/read-loan-packs.js';
import { LOAN_PACK_MONTHS, LOAN_PACK_STATUSES, REFERENCE_PATTERN, type LoanPackMonths, type Naira } from '../../../domain/loan-pack.js';
import { dateTime, doc, Documented, email, httpsUrl, int, nullableStr, object, shape, str, text } from '../codecs.js';
import { nairaJson, nairaSchema, dateTimeJsonOrNull, dateTimeJson } from '../json-values.js';

// The JSON views of loan packs and the request bodies, with their OpenAPI shapes.

const naira = doc('naira', nairaSchema());
const lagosDay = doc('Lagos day', { type: 'string', format: 'date' });
const reference = doc('loan pack reference', { type: 'string', pattern: REFERENCE_PATTERN.source, examples: ['LP-20261121-K7M2QX'] });
const sha256 = doc('SHA-256', { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'lowercase hex' });

export const REFERENCE_PARAM = { reference: { pattern: REFERENCE_PATTERN, description: 'the pack reference, e.g. LP-20261121-K7M2QX' } };

const months = new Documented<LoanPackMonths>('6 or 12', { type: 'integer', enum: [...LOAN_PACK_MONTHS], minimum: 6, maximum: 12, description: '6 or 12 (default 6)' }, (u, c) =>
  (LOAN_PACK_MONTHS as readonly unknown[]).includes(u) ? t.success(u as LoanPackMonths) : t.failure(u, c, 'must be 6 or 12'),
);

export const createLoanPackBody = object('CreateLoanPackRequest', {}, {
  months,
  purpose: text(1, 500, 'what the loan is for, printed on the pack'),
  lender_name: text(1, 200, 'who the pack is prepared for, printed on the pack'),
});
export const createLoanPackExample = { months: 6, purpose: 'Restock before the festive season', lender_name: 'LAPO Microfinance Bank' };

export const checkoutBody = object('LoanPackCheckoutRequest', {}, {
  email,
  callback_url: httpsUrl,
});
export const checkoutExample = { callback_url: 'https://app.example.com/loan-packs/paid' };

export const verifyPaymentBody = object('LoanPackPaymentVerifyRequest', { reference: new Documented<string>('loan pack reference', { type: 'string', pattern: REFERENCE_PATTERN.source, maxLength: 18 }, (u, c) =>
  typeof u === 'string' && REFERENCE_PATTERN.test(u) ? t.success(u) : t.failure(u, c, 'must be a loan pack reference (LP-YYYYMMDD-XXXXXX)')) });
export const verifyPaymentExample = { reference: 'LP-20261121-K7M2QX' };

const checkoutShape = shape('LoanPackCheckoutLink', { authorization_url: str, access_code: str });

export const loanPackShape = shape(
  'LoanPack',
  {
    reference,
    status: doc('loan pack status', { type: 'string', enum: [...LOAN_PACK_STATUSES] }),
    months: int,
    period_start: lagosDay,
    period_end: lagosDay,
    price: naira,
    currency: doc('currency', { type: 'string', const: 'NGN' }),
    purpose: nullableStr,
    lender_name: nullableStr,
    sha256,
    paid_at: doc('date-time or null', { type: ['string', 'null'], format: 'date-time' }),
    created_at: dateTime,
    checkout: doc('checkout or null', { oneOf: [checkoutShape.schema, { type: 'null' }] }),
  },
  {
    status: 'PENDING_PAYMENT until paid (FREE and STARTER); READY when paid or made on BUSINESS or PRO',
    period_start: 'the first day of the oldest month covered (Lagos)',
    period_end: 'the day the pack was made (Lagos): the current month is covered to date',
    price: 'what the pack costs: LOAN_PACK_PRICE_NGN on FREE and STARTER, 0 on BUSINESS and PRO',
    sha256: "SHA-256 of the pack's canonical JSON (GET .../download with Accept: application/json), printed on the PDF",
    checkout: 'the payment started for this pack, if any',
  },
);

export const loanPackJson = (p: LoanPack) => ({
  reference: p.reference,
  status: p.status,
  months: p.months,
  period_start: p.periodStart,
  period_end: p.periodEnd,
  price: nairaJson(p.price),
  currency: p.currency,
  purpose: p.purpose,
  lender_name: p.lenderName,
  sha256: p.sha256,
  paid_at: dateTimeJsonOrNull(p.paidAt),
  created_at: dateTimeJson(p.createdAt),
  checkout: p.checkout ? { authorization_url: p.checkout.authorizationUrl, access_code: p.checkout.accessCode } : null,
});

export const checkoutResultShape = shape('LoanPackCheckout', { authorization_url: str, access_code: str, reference, amount: naira }, {
  authorization_url: 'send the payer here (Paystack checkout, or the sandbox page when Paystack is not configured)',
  amount: 'what will be charged, naira',
});

export const paymentResultShape = shape('LoanPackPayment', {
  reference,
  status: doc('loan pack status', { type: 'string', enum: [...LOAN_PACK_STATUSES] }),
  payment_status: doc('gateway status', { type: 'string', enum: ['success', 'failed', 'abandoned', 'pending'] }),
  paid_at: doc('date-time or null', { type: ['string', 'null'], format: 'date-time' }),
  pack: loanPackShape,
}, { payment_status: "the gateway's word on the transaction: only success (of the pack's price, in NGN) makes the pack READY" });

const totalsShape = shape('LoanPackHeadline', { revenue: naira, gross_profit: naira, expenses: naira, net_profit: naira, sales_count: int, net_cash_flow: naira });
export const verifiedShape = shape('LoanPackVerification', {
  valid: doc('true', { type: 'boolean', const: true }),
  reference,
  business_name: str,
  months: int,
  period_start: lagosDay,
  period_end: lagosDay,
  created_at: dateTime,
  sha256,
  totals: totalsShape,
}, { valid: 'always true: a wrong hash or an unknown reference is 404', totals: 'headline figures over the whole period, to compare with the document' });

const n = (a: Naira) => nairaJson(a.kobo);
export const verifiedJson = (v: VerifiedLoanPack) => ({
  valid: true,
  reference: v.reference,
  business_name: v.businessName,
  months: v.months,
  period_start: v.periodStart,
  period_end: v.periodEnd,
  created_at: dateTimeJson(v.createdAt),
  sha256: v.sha256,
  totals: {
    revenue: n(v.totals.revenue), gross_profit: n(v.totals.gross_profit), expenses: n(v.totals.expenses),
    net_profit: n(v.totals.net_profit), sales_count: v.totals.sales_count, net_cash_flow: n(v.totals.net_cash_flow),
  },
});

export const verifyQuery = object('LoanPackVerifyQuery', {
  hash: new Documented<string>('SHA-256', { type: 'string', pattern: '^[0-9a-fA-F]{64}$', minLength: 64, maxLength: 64, description: 'the SHA-256 printed on the pack' }, (u, c) =>
    typeof u === 'string' && /^[0-9a-fA-F]{64}$/.test(u) ? t.success(u.toLowerCase()) : t.failure(u, c, 'must be a SHA-256 in hex (64 characters)')),
});
