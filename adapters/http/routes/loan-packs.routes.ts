import type { createLoanPack } from '../../../application/loan-packs/create-loan-pack.js';
import type { startLoanPackCheckout, verifyLoanPackPayment } from '../../../application/loan-packs/pay-loan-pack.js';
import type { LoanPack } from '../../../application/loan-packs/ports.js';
import type { downloadLoanPack, getLoanPack, listLoanPacks, verifyLoanPackDocument } from '../../../application/loan-packs/read-loan-packs.js';
import { doc, jsonSchemaOf } from '../codecs.js';
import { nairaJson, dateTimeJsonOrNull } from '../json-values.js';
import { successOf } from '../failures.js';
import { listQuery, pageSchema, type Paging } from '../paging.js';
import { created, ok, okFile, OWNER_ONLY, route } from '../route.js';
import {
  checkoutBody, checkoutExample, checkoutResultShape, createLoanPackBody, createLoanPackExample, loanPackDocumentShape, loanPackJson, loanPackShape, paymentResultShape,
  REFERENCE_PARAM, verifiedJson, verifiedShape, verifyPaymentBody, verifyPaymentExample, verifyQuery,
} from './loan-packs.views.js';
import { failuresOf, type FailureOf } from '../failure-codes.js';

export interface LoanPackUseCases {
  readonly createLoanPack: ReturnType<typeof createLoanPack>;
  readonly listLoanPacks: ReturnType<typeof listLoanPacks>;
  readonly getLoanPack: ReturnType<typeof getLoanPack>;
  readonly startLoanPackCheckout: ReturnType<typeof startLoanPackCheckout>;
  readonly verifyLoanPackPayment: ReturnType<typeof verifyLoanPackPayment>;
  readonly downloadLoanPack: ReturnType<typeof downloadLoanPack>;
  readonly verifyLoanPackDocument: ReturnType<typeof verifyLoanPackDocument>;
  /** The pack as a PDF (pdfkit, wired in compose), with the lender's verification URL on it. */
  readonly renderLoanPackPdf: (pack: LoanPack, verifyUrl: string) => Promise<Buffer>;
  /** Where a lender checks a pack: PUBLIC_BASE_URL/api/v1/loan-packs/verify/{reference}?hash={sha256}. */
  readonly loanPackVerifyUrl: (pack: LoanPack) => string;
  readonly paging: Paging;
}

const TAG = 'Loan packs';
const PDF = 'application/pdf';
const JSON_TYPE = 'application/json';

/** Loan packs: a lender-ready trading record, paid per pack on FREE and STARTER (docs/adr/0031-loan-pack.md). */
export const loanPackRoutes = (uc: LoanPackUseCases) => [
  route({
    method: 'post',
    path: '/reports/loan-pack',
    operationId: 'createLoanPack',
    tag: TAG,
    summary: 'Make a loan pack of the last 6 or 12 months (owner)',
    description:
      'Computes and freezes the pack: identity, per month revenue, gross profit, expenses, net profit, sales and average sale, cash flow, stock value now, ' +
      'the credit book and data-quality figures (TRANSFER/CARD shares, void rate, days with sales). The months end with the current Lagos month (to date). ' +
      'On FREE and STARTER the pack is PENDING_PAYMENT at LOAN_PACK_PRICE_NGN; on BUSINESS and PRO it is READY at 0. Later sales do not change it.',
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    idempotent: true,
    body: createLoanPackBody,
    bodyExample: createLoanPackExample,
    success: { status: 201, description: 'The pack', data: loanPackShape },
    errors: [],
    handler: async ({ actor, body }) => {
      const pack = await uc.createLoanPack(actor, {
        months: body.months ?? 6,
        ...(body.purpose ? { purpose: body.purpose } : {}),
        ...(body.lender_name ? { lenderName: body.lender_name } : {}),
      });
      return created('Loan pack created', loanPackJson(pack));
    },
  }),
  route({
    method: 'get',
    path: '/reports/loan-pack',
    operationId: 'listLoanPacks',
    tag: TAG,
    summary: "The business's loan packs (owner)",
    description: 'Paged (keyset), newest first unless sort_dir=asc. search: reference, lender_name, purpose; start_date/end_date bound created_at.',
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    query: listQuery('LoanPackListQuery', ['created_at'] as const, {}),
    success: { status: 200, description: 'A page of loan packs', data: doc('LoanPackPage', pageSchema(jsonSchemaOf(loanPackShape))) },
    errors: [],
    handler: async ({ actor, query }) => {
      const req = uc.paging.request('listLoanPacks', query, 'created_at');
      return ok('Loan packs', uc.paging.render('listLoanPacks', query, req, await uc.listLoanPacks(actor, req), loanPackJson));
    },
  }),
  route({
    method: 'post',
    path: '/reports/loan-pack/payment/verify',
    operationId: 'verifyLoanPackPayment',
    tag: TAG,
    summary: 'Check the payment of a pack with the gateway (owner)',
    description:
      "Call when the payer comes back from the checkout. Asks the gateway; a success of the pack's price in NGN marks the pack READY (exactly once, " +
      'whether this call, another or the webhook gets there first). A failed or abandoned payment leaves it PENDING_PAYMENT (payment_status says which); ' +
      'a success of another amount or currency is refused (422 PAYMENT_AMOUNT_MISMATCH) and logged. A paid pack answers READY again.',
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    body: verifyPaymentBody,
    bodyExample: verifyPaymentExample,
    success: { status: 200, description: 'The pack after the check', data: paymentResultShape },
    failures: failuresOf<FailureOf<typeof uc.verifyLoanPackPayment>>({
      NotFound: true, NoPaymentDue: true, PaymentGatewayUnavailable: true, PaymentAmountMismatch: true,
    }),
    errors: [],
    handler: async ({ actor, body }) => {
      const r = successOf(await uc.verifyLoanPackPayment(actor, body.reference), 'loan pack');
      return ok(r.pack.status === 'READY' ? 'Loan pack paid' : 'Loan pack not paid yet', {
        reference: r.pack.reference, status: r.pack.status, payment_status: r.gatewayStatus, paid_at: dateTimeJsonOrNull(r.pack.paidAt), pack: loanPackJson(r.pack),
      });
    },
  }),
  route({
    method: 'get',
    path: '/reports/loan-pack/:reference',
    operationId: 'getLoanPack',
    tag: TAG,
    summary: 'One loan pack (owner)',
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    pathParams: REFERENCE_PARAM,
    success: { status: 200, description: 'The pack', data: loanPackShape },
    failures: failuresOf<FailureOf<typeof uc.getLoanPack>>({ NotFound: true }),
    errors: [],
    handler: async ({ actor, params }) => ok('Loan pack', loanPackJson(successOf(await uc.getLoanPack(actor, params.reference), 'loan pack'))),
  }),
  route({
    method: 'post',
    path: '/reports/loan-pack/:reference/checkout',
    operationId: 'startLoanPackCheckout',
    tag: TAG,
    summary: 'Start paying for a pack (owner)',
    description:
      'Answers where to send the payer: Paystack checkout, or, with no Paystack key configured, the sandbox page this API serves. One transaction per pack: ' +
      "calling again answers the same checkout. email defaults to the owner's, then the business's (422 PAYER_EMAIL_REQUIRED when neither has one); " +
      'callback_url is where the payer is sent back (with ?trxref=&reference=). A pack with nothing due is 409 NO_PAYMENT_DUE.',
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    idempotent: true,
    pathParams: REFERENCE_PARAM,
    body: checkoutBody,
    bodyExample: checkoutExample,
    success: { status: 200, description: 'The checkout', data: checkoutResultShape },
    failures: failuresOf<FailureOf<typeof uc.startLoanPackCheckout>>({ NotFound: true, NoPaymentDue: true, PaymentGatewayUnavailable: true, PayerEmailRequired: true }),
    errors: [],
    handler: async ({ actor, params, body }) => {
      const r = successOf(
        await uc.startLoanPackCheckout(actor, params.reference, { ...(body.email ? { email: body.email } : {}), ...(body.callback_url ? { callbackUrl: body.callback_url } : {}) }),
        'loan pack',
      );
      return ok('Checkout', { authorization_url: r.checkout.authorizationUrl, access_code: r.checkout.accessCode, reference: r.pack.reference, amount: nairaJson(r.pack.price) });
    },
  }),
  route({
    method: 'get',
    path: '/reports/loan-pack/:reference/download',
    operationId: 'downloadLoanPack',
    tag: TAG,
    summary: 'Download a pack: PDF, or its canonical JSON (owner)',
    description:
      'The PDF (A4) by default or with Accept: application/pdf; with Accept: application/json, the canonical JSON document (keys sorted, no whitespace, money ' +
      'in naira with exactly 2 decimals, format bizops-loan-pack/2; packs made before it keep their bizops-loan-pack/1 bytes, money as integer kobo in *_kobo keys): exactly the bytes whose SHA-256 is printed on the PDF and checked at GET /loan-packs/verify/{reference}. ' +
      'On FREE and STARTER, 402 LOAN_PACK_PAYMENT_REQUIRED until the pack is paid.',
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    pathParams: REFERENCE_PARAM,
    success: {
      status: 200,
      description: 'The pack as a PDF',
      contentType: PDF,
      data: doc('LoanPackPdf', { type: 'string', format: 'binary' }),
      alternatives: { [JSON_TYPE]: { description: "the canonical JSON document (not in the envelope): sha256 of these bytes is the pack's sha256", data: loanPackDocumentShape } },
      headers: { 'Content-Disposition': 'attachment; filename="{reference}.pdf" (or .json)' },
    },
    failures: failuresOf<FailureOf<typeof uc.downloadLoanPack>>({ NotFound: true, LoanPackPaymentRequired: true }),
    errors: [],
    handler: async ({ actor, params, ctx }) => {
      const pack = successOf(await uc.downloadLoanPack(actor, params.reference), 'loan pack');
      // PDF unless JSON is asked for (Accept absent or */* is the PDF).
      if (ctx.accepts(PDF, JSON_TYPE) === JSON_TYPE) {
        return okFile('Loan pack JSON', { contentType: JSON_TYPE, body: pack.document }, { 'Content-Disposition': `attachment; filename="${pack.reference}.json"` });
      }
      const pdf = await uc.renderLoanPackPdf(pack, uc.loanPackVerifyUrl(pack));
      return okFile('Loan pack PDF', { contentType: PDF, body: pdf }, { 'Content-Disposition': `attachment; filename="${pack.reference}.pdf"` });
    },
  }),
  route({
    method: 'get',
    path: '/loan-packs/verify/:reference',
    operationId: 'verifyLoanPack',
    tag: TAG,
    summary: 'A lender checks a pack (public)',
    description:
      "No token. hash is the SHA-256 printed on the pack (or computed over its JSON). When it is that ready pack's, answers the business name, period and " +
      'headline figures to compare with the document. A wrong hash and an unknown reference are the same 404. Rate-limited per IP.',
    access: 'public',
    rateLimit: 'ip',
    pathParams: REFERENCE_PARAM,
    query: verifyQuery,
    success: { status: 200, description: 'The pack is genuine and unchanged', data: verifiedShape },
    failures: failuresOf<FailureOf<typeof uc.verifyLoanPackDocument>>({ NotFound: true }),
    errors: [],
    handler: async ({ params, query }) => ok('Loan pack verified', verifiedJson(successOf(await uc.verifyLoanPackDocument(params.reference, query.hash), 'loan pack'))),
  }),
];
