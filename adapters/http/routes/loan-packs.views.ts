import * as t from 'io-ts';
import { AGING_BUCKETS } from '../../../domain/credit.js';
import { LOAN_PACK_FORMAT } from '../../../application/loan-packs/document.js';
import type { LoanPack } from '../../../application/loan-packs/ports.js';
import type { VerifiedLoanPack } from '../../../application/loan-packs/read-loan-packs.js';
import { LOAN_PACK_MONTHS, LOAN_PACK_STATUSES, REFERENCE_PATTERN, type LoanPackMonths, type Naira } from '../../../domain/loan-pack.js';
import { dateTime, doc, Documented, email, httpsUrl, int, nullableStr, object, shape, str, text } from '../codecs.js';
import { nairaJson, nairaSchema, nairaSumJson, NAIRA_SUM, dateTimeJsonOrNull, dateTimeJson } from '../json-values.js';

// The JSON views of loan packs and the request bodies, with their OpenAPI shapes.

const naira = doc('naira', nairaSchema());
/** A sum: may pass 90 trillion naira (2^53 kobo), written exactly (docs/adr/0038). */
const nairaSum = doc('naira', nairaSchema({ description: NAIRA_SUM }));
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

const totalsShape = shape('LoanPackHeadline', { revenue: nairaSum, gross_profit: nairaSum, expenses: nairaSum, net_profit: nairaSum, sales_count: int, net_cash_flow: nairaSum });
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

/** A document's amount as a body's money: 2 decimals, exact at any size (a sum past 2^53 kobo is a bigint, docs/adr/0038). */
const n = (a: Naira) => (typeof a.kobo === 'bigint' ? nairaSumJson(a.kobo) : nairaJson(a.kobo));
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

// ---- the pack's canonical JSON document (GET /reports/loan-pack/{reference}/download with Accept: application/json) ----
// Its shape is application/loan-packs/document.ts `loanPackDocument` (format bizops-loan-pack/2, ADR 0046): money as naira
// written with exactly 2 decimals (a sum exact at any size, docs/adr/0038), shares as per cent strings with 2 decimals, days as
// YYYY-MM-DD in Lagos. A test checks a real pack against it. Packs made in bizops-loan-pack/1 (integer kobo in `*_kobo` keys)
// are served with their stored bytes.

/** An amount the document holds: naira with exactly 2 decimals (canonical JSON writes it so: no float is printed). */
const amount = doc('naira', nairaSchema());
/** A sum the document holds: may pass 90 trillion naira (2^53 kobo), written with its exact digits. */
const sumAmount = doc('naira', nairaSchema({ description: NAIRA_SUM }));
const count = doc('count', { type: 'integer', minimum: 0 });
const pct = doc('per cent', { type: 'string', pattern: '^\\d+\\.\\d{2}$', description: 'per cent with 2 decimals, e.g. "12.50"' });
const monthOf = doc('month', { type: 'string', pattern: '^\\d{4}-\\d{2}$', description: 'a Lagos calendar month, YYYY-MM' });
const cashAndProfit = {
  revenue: sumAmount, cost_of_goods: sumAmount, gross_profit: sumAmount, expenses: sumAmount, net_profit: sumAmount, sales_count: count,
  average_sale: amount, cash_in: sumAmount, cash_out: sumAmount, net_cash_flow: sumAmount,
};
const loanPackMonthShape = shape('LoanPackMonth', {
  month: monthOf, ...cashAndProfit, credit_collected: sumAmount, transfer_share_pct: pct, card_share_pct: pct, void_rate_pct: pct, days_with_sales: count, days_covered: count,
});
export const loanPackDocumentShape = shape(
  'LoanPackDocument',
  {
    format: doc('format', { type: 'string', enum: [LOAN_PACK_FORMAT] }),
    reference,
    created_at: dateTime,
    currency: doc('currency', { type: 'string', enum: ['NGN'] }),
    months: doc('months', { type: 'integer', enum: [...LOAN_PACK_MONTHS] }),
    period_start: lagosDay,
    period_end: lagosDay,
    purpose: nullableStr,
    lender_name: nullableStr,
    business: shape('loan pack business', { name: str, owner_name: str, verified_phone: nullableStr, registered_since: lagosDay, branches: doc('branch names', { type: 'array', items: { type: 'string' } }) }, {
      verified_phone: "the owner's phone when verified, else null",
    }),
    monthly: doc('loan pack months', { type: 'array', items: loanPackMonthShape.schema }),
    totals: shape('loan pack totals', cashAndProfit),
    stock: shape('loan pack stock', { as_of: lagosDay, products: count, units: int, value_at_cost: sumAmount, value_at_price: sumAmount }, { units: 'units in stock (may be below zero after an offline oversell)' }),
    credit: shape('loan pack credit', {
      as_of: lagosDay, outstanding: amount, customers_owing: count,
      aging: shape('loan pack aging', Object.fromEntries(AGING_BUCKETS.map((b) => [b, amount]))), collected_in_period: sumAmount,
    }),
    data_quality: shape('loan pack data quality', { transfer_share_pct: pct, card_share_pct: pct, void_rate_pct: pct, days_with_sales: count, days_in_period: count }),
  },
  { monthly: 'one per calendar month of the period, oldest first', totals: 'over the whole period' },
);
