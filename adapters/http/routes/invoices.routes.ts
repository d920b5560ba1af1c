import * as t from 'io-ts';
import type { cancelInvoice, convertProforma, createInvoice, deleteInvoice, getInvoice, listInvoices, sendInvoice, updateInvoice } from '../../../application/invoices/manage-invoices.js';
import type { recordInvoicePayment } from '../../../application/invoices/invoice-payments.js';
import { INVOICE_SORTS } from '../../../application/invoices/ports.js';
import type { Clock } from '../../../application/ports/clock.js';
import { lagosDate } from '../../../domain/lagos-time.js';
import { INVOICE_STATUSES, INVOICE_TYPES, MANUAL_PAYMENT_METHODS, MAX_INVOICE_LINES, MAX_INVOICE_QUANTITY, type InvoiceLineInput } from '../../../domain/invoice.js';
import { booleanInput, doc, Documented, enumOf, jsonSchemaOf, money, object, orNull, paymentTermsDays, positiveInteger, positiveMoney, queryFlag, text, uuidInput } from '../codecs.js';
import { clientTime } from '../client-made.js';
import { lagosDayInput } from '../dates.js';
import { listQuery, pageSchema, type Paging } from '../paging.js';
import { successOf } from '../failures.js';
import { created, ok, OWNER_AND_STAFF, OWNER_ONLY, route } from '../route.js';
import { failuresOf, type FailureOf } from '../failure-codes.js';
import { invoiceJson, invoiceShape, invoiceSummary, invoiceSummaryShape } from './invoices.views.js';

// Customer invoices (docs/adr/0072): bill a customer before they pay.

export interface InvoiceUseCases {
  readonly createInvoice: ReturnType<typeof createInvoice>;
  readonly updateInvoice: ReturnType<typeof updateInvoice>;
  readonly deleteInvoice: ReturnType<typeof deleteInvoice>;
  readonly sendInvoice: ReturnType<typeof sendInvoice>;
  readonly cancelInvoice: ReturnType<typeof cancelInvoice>;
  readonly convertProforma: ReturnType<typeof convertProforma>;
  readonly recordInvoicePayment: ReturnType<typeof recordInvoicePayment>;
  readonly getInvoice: ReturnType<typeof getInvoice>;
  readonly listInvoices: ReturnType<typeof listInvoices>;
  readonly paging: Paging;
  readonly clock: Clock;
  readonly publicBaseUrl: string;
}

const TAG = 'Invoices';

const lineCodec = object(
  'InvoiceLineRequest',
  { quantity: positiveInteger(MAX_INVOICE_QUANTITY) },
  { product_id: uuidInput, description: text(1, 300, 'what the line bills; default the product\'s name; required on an ad-hoc line'), unit_price: money, discount: money, vat_exempt: booleanInput },
);
const lines = new Documented<t.TypeOf<typeof lineCodec>[]>(
  'lines',
  { type: 'array', minItems: 1, maxItems: MAX_INVOICE_LINES, items: jsonSchemaOf(lineCodec) },
  (u, c) => {
    if (!Array.isArray(u) || u.length < 1 || u.length > MAX_INVOICE_LINES) return t.failure(u, c, `must be a list of 1 to ${MAX_INVOICE_LINES} lines`);
    return t.array(lineCodec).validate(u, c);
  },
);
const contentFields = {
  branch_id: uuidInput,
  issue_date: lagosDayInput('the Lagos day the invoice is issued (default today)', 1900),
  payment_terms_days: paymentTermsDays,
  notes: orNull(text(1, 1000)),
};
type Body = { customer_id: string; lines: t.TypeOf<typeof lineCodec>[]; branch_id?: string; issue_date?: string; payment_terms_days?: number; notes?: string | null };
const content = (b: Body) => ({
  customerId: b.customer_id,
  lines: b.lines.map(
    (l): InvoiceLineInput => ({
      quantity: l.quantity,
      ...(l.product_id !== undefined ? { productId: l.product_id } : {}),
      ...(l.description !== undefined ? { description: l.description } : {}),
      ...(l.unit_price !== undefined ? { unitPrice: l.unit_price } : {}),
      ...(l.discount !== undefined ? { discount: l.discount } : {}),
      ...(l.vat_exempt !== undefined ? { vatExempt: l.vat_exempt } : {}),
    }),
  ),
  ...(b.branch_id !== undefined ? { branchId: b.branch_id } : {}),
  ...(b.issue_date !== undefined ? { issueDate: b.issue_date } : {}),
  ...(b.payment_terms_days !== undefined ? { paymentTermsDays: b.payment_terms_days } : {}),
  ...(b.notes !== undefined ? { notes: b.notes } : {}),
});

const EXAMPLE_LINES = [
  { product_id: '3f1c2a4e-8b7d-4c6e-9a1b-2d3e4f5a6b7c', quantity: 10, discount: 500 },
  { description: 'Delivery fee', quantity: 1, unit_price: 2500, vat_exempt: true },
];
const LINES_DESCRIPTION =
  ' Each line names a product (unit_price defaults to its price, description to its name) or is ad hoc (description and unit_price required; ' +
  'it carries the business\'s VAT rate unless vat_exempt). discount is an amount off the line (at most quantity x unit_price, else 422 ' +
  'INVOICE_LINE_INVALID); line_total = quantity x unit_price - discount. VAT (docs/adr/0054): a VAT-registered business charges each line its rate ' +
  '(an exempt product: 0) on its line_total, inside it or added as its prices say; total = the lines\' totals (plus VAT where prices exclude it), ' +
  'subtotal = total - vat_total. due_date = issue_date + payment_terms_days (default the business\'s payment_terms_days, PUT /businesses/me). Fetch customer ids from GET /customers, product ids from GET /products and branch ids from GET /businesses/me/branches first.';

export const invoiceRoutes = (uc: InvoiceUseCases) => {
  const view = (x: Parameters<typeof invoiceJson>[0]) => invoiceJson(x, uc.clock.now(), uc.publicBaseUrl);
  return [
    route({
      method: 'post',
      path: '/invoices',
      operationId: 'createInvoice',
      tag: TAG,
      summary: 'Create a draft invoice',
      description:
        'Owner or staff. A DRAFT: no number, no stock moved. type INVOICE, PROFORMA (a quote: takes no stock and no payments) or TAX_INVOICE ' +
        '(needs the business VAT-registered with a TIN, else 422 VAT_NOT_REGISTERED; numbered in the INV- series). An unknown customer_id is 422 ' +
        'UNKNOWN_CUSTOMER, an unknown product 422 UNKNOWN_PRODUCT. branch_id: the branch whose stock the invoice takes when sent (default the ' +
        'member\'s branch, else the default branch).' + LINES_DESCRIPTION + ' Honours Idempotency-Key.',
      access: { roles: OWNER_AND_STAFF },
      rateLimit: 'user',
      idempotent: true,
      body: object('CreateInvoiceRequest', { type: enumOf('type', INVOICE_TYPES), customer_id: uuidInput, lines }, contentFields),
      bodyExample: { type: 'INVOICE', customer_id: '7d9e2b1a-4c3f-4e5d-8a6b-1c2d3e4f5a6b', lines: EXAMPLE_LINES, payment_terms_days: 14, notes: 'Thank you for your business' },
      success: { status: 201, description: 'The draft', data: invoiceShape },
      failures: failuresOf<FailureOf<typeof uc.createInvoice>>({
        NotFound: true, NegativePrice: true, NegativeAmount: true, VatNotRegistered: true, UnknownInvoiceCustomer: true, UnknownInvoiceProduct: true,
        InvoiceAmountsInvalid: true, UnknownBranch: true, WrongBranch: true,
      }),
      errors: ['IDEMPOTENCY_IN_PROGRESS', 'IDEMPOTENCY_KEY_REUSED'],
      handler: async ({ actor, body }) => created('Invoice created', view(successOf(await uc.createInvoice(actor, { type: body.type, ...content(body) }), 'invoice'))),
    }),
    route({
      method: 'get',
      path: '/invoices',
      operationId: 'listInvoices',
      tag: TAG,
      summary: 'Invoices',
      description:
        'Owner or staff. Paged (keyset), newest first; lines and payments are not included (GET /invoices/{id}). start_date and end_date bound ' +
        'the issue date (Lagos days); status, type, customer_id and overdue=true (due date passed, a balance left) filter. search: number and the customer\'s name.',
      access: { roles: OWNER_AND_STAFF },
      rateLimit: 'user',
      query: listQuery('InvoiceListQuery', INVOICE_SORTS, {
        status: enumOf('status', INVOICE_STATUSES),
        type: enumOf('type', INVOICE_TYPES),
        customer_id: uuidInput,
        overdue: queryFlag,
      }),
      success: { status: 200, description: 'A page of invoices', data: doc('InvoicePage', pageSchema(jsonSchemaOf(invoiceSummaryShape))) },
      errors: [],
      handler: async ({ actor, query }) => {
        const req = uc.paging.request('listInvoices', query, 'created_at');
        const now = uc.clock.now();
        const page = await uc.listInvoices(actor, req, {
          ...(query.status ? { status: query.status } : {}),
          ...(query.type ? { type: query.type } : {}),
          ...(query.customer_id ? { customerId: query.customer_id } : {}),
          ...(query.overdue ? { overdueOn: lagosDate(now) } : {}),
        });
        return ok('Invoices', uc.paging.render('listInvoices', query, req, page, (x) => invoiceSummary(x, now, uc.publicBaseUrl)));
      },
    }),
    route({
      method: 'get',
      path: '/invoices/:id',
      operationId: 'getInvoice',
      tag: TAG,
      summary: 'An invoice with its lines and payments',
      description: 'Owner or staff. Another business\'s invoice is 404.',
      access: { roles: OWNER_AND_STAFF },
      rateLimit: 'user',
      success: { status: 200, description: 'The invoice', data: invoiceShape },
      failures: failuresOf<FailureOf<typeof uc.getInvoice>>({ NotFound: true }),
      errors: [],
      handler: async ({ actor, params }) => ok('Invoice', view(successOf(await uc.getInvoice(actor, params.id), 'invoice'))),
    }),
    route({
      method: 'put',
      path: '/invoices/:id',
      operationId: 'updateInvoice',
      tag: TAG,
      summary: 'Replace a draft invoice',
      description: 'Owner or staff. While DRAFT only (else 409 INVOICE_NOT_DRAFT); the type stays. The whole content is replaced.' + LINES_DESCRIPTION,
      access: { roles: OWNER_AND_STAFF },
      rateLimit: 'user',
      body: object('UpdateInvoiceRequest', { customer_id: uuidInput, lines }, contentFields),
      bodyExample: { customer_id: '7d9e2b1a-4c3f-4e5d-8a6b-1c2d3e4f5a6b', lines: EXAMPLE_LINES, payment_terms_days: 30 },
      success: { status: 200, description: 'The draft', data: invoiceShape },
      failures: failuresOf<FailureOf<typeof uc.updateInvoice>>({
        NotFound: true, NegativePrice: true, NegativeAmount: true, VatNotRegistered: true, UnknownInvoiceCustomer: true, UnknownInvoiceProduct: true,
        InvoiceAmountsInvalid: true, UnknownBranch: true, WrongBranch: true, InvoiceNotDraft: true,
      }),
      errors: [],
      handler: async ({ actor, params, body }) => ok('Invoice updated', view(successOf(await uc.updateInvoice(actor, params.id, content(body)), 'invoice'))),
    }),
    route({
      method: 'delete',
      path: '/invoices/:id',
      operationId: 'deleteInvoice',
      tag: TAG,
      summary: 'Delete a draft invoice',
      description: 'Owner or staff. A sent invoice is 409 INVOICE_NOT_DRAFT (cancel it instead).',
      access: { roles: OWNER_AND_STAFF },
      rateLimit: 'user',
      success: { status: 200, description: 'Deleted', data: doc('InvoiceDeleted', { type: 'object', properties: { id: { type: 'string', format: 'uuid' } } }) },
      failures: failuresOf<FailureOf<typeof uc.deleteInvoice>>({ NotFound: true, InvoiceNotDraft: true }),
      errors: [],
      handler: async ({ actor, params }) => {
        successOf(await uc.deleteInvoice(actor, params.id), 'invoice');
        return ok('Invoice deleted', { id: params.id });
      },
    }),
    route({
      method: 'post',
      path: '/invoices/:id/send',
      operationId: 'sendInvoice',
      tag: TAG,
      summary: 'Send a draft invoice',
      description:
        'Owner or staff. DRAFT -> SENT: the invoice takes its number (gap-free per business and series), and an INVOICE or TAX_INVOICE takes its ' +
        'product lines from its branch in the same transaction (409 INSUFFICIENT_STOCK naming the product and branch, nothing written). A second ' +
        'send (or two at once: one wins) is 409 INVOICE_NOT_DRAFT. Honours Idempotency-Key.',
      access: { roles: OWNER_AND_STAFF },
      rateLimit: 'user',
      idempotent: true,
      success: { status: 200, description: 'The sent invoice', data: invoiceShape },
      failures: failuresOf<FailureOf<typeof uc.sendInvoice>>({ NotFound: true, InvoiceNotDraft: true, InsufficientStock: true }),
      errors: ['IDEMPOTENCY_IN_PROGRESS', 'IDEMPOTENCY_KEY_REUSED'],
      handler: async ({ actor, params }) => ok('Invoice sent', view(successOf(await uc.sendInvoice(actor, params.id), 'invoice'))),
    }),
    route({
      method: 'post',
      path: '/invoices/:id/cancel',
      operationId: 'cancelInvoice',
      tag: TAG,
      summary: 'Cancel a sent invoice (owner)',
      description:
        'Owner only. A sent invoice with no payments is CANCELLED and its stock goes back to its branch (INVOICE_CANCEL rows); its share link ' +
        'answers 404 from then on. With payments: 409 INVOICE_HAS_PAYMENTS; a draft (delete it) or a cancelled invoice: 409 INVOICE_WRONG_STATE. Honours Idempotency-Key.',
      access: { roles: OWNER_ONLY },
      rateLimit: 'user',
      idempotent: true,
      success: { status: 200, description: 'The cancelled invoice', data: invoiceShape },
      failures: failuresOf<FailureOf<typeof uc.cancelInvoice>>({ NotFound: true, InvoiceHasPayments: true, InvoiceWrongState: true }),
      errors: ['IDEMPOTENCY_IN_PROGRESS', 'IDEMPOTENCY_KEY_REUSED'],
      handler: async ({ actor, params }) => ok('Invoice cancelled', view(successOf(await uc.cancelInvoice(actor, params.id), 'invoice'))),
    }),
    route({
      method: 'post',
      path: '/invoices/:id/convert',
      operationId: 'convertProforma',
      tag: TAG,
      summary: 'Turn a sent proforma into an invoice draft',
      description: 'Owner or staff. A SENT proforma becomes a new INVOICE draft with its customer, branch, terms and lines (priced at today\'s VAT settings); anything else is 409 INVOICE_WRONG_STATE. Honours Idempotency-Key.',
      access: { roles: OWNER_AND_STAFF },
      rateLimit: 'user',
      idempotent: true,
      success: { status: 201, description: 'The new draft', data: invoiceShape },
      failures: failuresOf<FailureOf<typeof uc.convertProforma>>({
        NotFound: true, InvoiceWrongState: true, NegativePrice: true, NegativeAmount: true, VatNotRegistered: true, UnknownInvoiceCustomer: true,
        UnknownInvoiceProduct: true, InvoiceAmountsInvalid: true, UnknownBranch: true, WrongBranch: true,
      }),
      errors: ['IDEMPOTENCY_IN_PROGRESS', 'IDEMPOTENCY_KEY_REUSED'],
      handler: async ({ actor, params }) => created('Invoice draft created', view(successOf(await uc.convertProforma(actor, params.id), 'invoice'))),
    }),
    route({
      method: 'post',
      path: '/invoices/:id/payments',
      operationId: 'recordInvoicePayment',
      tag: TAG,
      summary: 'Record a payment on an invoice',
      description:
        'Owner or staff. SENT -> PARTIALLY_PAID -> PAID. amount above 0 (else 422 AMOUNT_MUST_BE_POSITIVE) and at most the balance (else 422 ' +
        'AMOUNT_EXCEEDS_BALANCE; of two payments at once that together would overpay, the second). A draft, proforma or cancelled invoice is 409 ' +
        'INVOICE_NOT_PAYABLE. paid_at defaults to now. ONLINE payments come only through the customer\'s page. Honours Idempotency-Key.',
      access: { roles: OWNER_AND_STAFF },
      rateLimit: 'user',
      idempotent: true,
      body: object(
        'InvoicePaymentRequest',
        { amount: positiveMoney, method: enumOf('method', MANUAL_PAYMENT_METHODS) },
        { paid_at: clientTime, reference: orNull(text(1, 100, 'a bank transfer reference or receipt number')) },
      ),
      bodyExample: { amount: 25000, method: 'TRANSFER', reference: 'GTB-0042' },
      success: { status: 201, description: 'The invoice with the payment', data: invoiceShape },
      failures: failuresOf<FailureOf<typeof uc.recordInvoicePayment>>({ NotFound: true, AmountNotPositive: true, InvoiceNotPayable: true, AmountExceedsBalance: true }),
      errors: ['IDEMPOTENCY_IN_PROGRESS', 'IDEMPOTENCY_KEY_REUSED'],
      handler: async ({ actor, params, body }) =>
        created(
          'Payment recorded',
          view(
            successOf(
              await uc.recordInvoicePayment(actor, params.id, {
                amount: body.amount,
                method: body.method,
                ...(body.paid_at !== undefined ? { paidAt: body.paid_at } : {}),
                ...(body.reference !== undefined ? { reference: body.reference } : {}),
              }),
              'invoice',
            ),
          ),
        ),
    }),
  ];
};
