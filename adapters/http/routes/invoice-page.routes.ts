import type { invoiceDocument, shareInvoice, startInvoiceCheckout, verifyInvoicePayment, viewPublicInvoice, PublicInvoice } from '../../../application/invoices/public-invoice.js';
import type { Clock } from '../../../application/ports/clock.js';
import { balanceDue, INVOICE_STATUSES, INVOICE_TYPES, isOverdue } from '../../../domain/invoice.js';
import { NOTIFICATION_CHANNELS } from '../../../domain/notification.js';
import { escapeHtml, INVOICE_PAGE_CSP } from '../../invoices/html-invoice.js';
import { bool, doc, enumOf, jsonSchemaOf, nullableStr, object, shape, str, text } from '../codecs.js';
import { successOf } from '../failures.js';
import { failuresOf, type FailureOf } from '../failure-codes.js';
import { dateTimeJson, nairaJson, nairaSchema } from '../json-values.js';
import { accepted, okFile, OWNER_AND_STAFF, route, type Reply } from '../route.js';
import { lineJson, lineShape, shareUrl } from './invoices.views.js';

// The customer's side of an invoice (docs/adr/0075, 0076): the share page (HTML or JSON), its PDF, Pay now,
// and the member's PDF and share.

export interface InvoicePageUseCases {
  readonly viewPublicInvoice: ReturnType<typeof viewPublicInvoice>;
  readonly invoiceDocument: ReturnType<typeof invoiceDocument>;
  readonly startInvoiceCheckout: ReturnType<typeof startInvoiceCheckout>;
  readonly verifyInvoicePayment: ReturnType<typeof verifyInvoicePayment>;
  readonly shareInvoice: ReturnType<typeof shareInvoice>;
  readonly renderInvoicePage: (p: PublicInvoice, now: Date, links: { pdf: string; pay: string | undefined }) => string;
  readonly renderInvoicePdf: (p: PublicInvoice, shareUrl: string) => Promise<Buffer>;
  readonly clock: Clock;
  readonly publicBaseUrl: string;
}

const TAG = 'Invoices';
const HTML = 'text/html; charset=utf-8';
const PDF = 'application/pdf';
const TOKEN = { token: { pattern: /^[A-Za-z0-9]{32}$/, description: "the invoice's share token (the secret of its share_url)" } };
const naira = doc('naira', nairaSchema());

const publicJson = ({ invoice: i, business: b }: PublicInvoice, now: Date, url: string) => ({
  business: { name: b.name, address: b.address, phone: b.phone, email: b.email, tin: i.type === 'TAX_INVOICE' ? b.tin : null },
  type: i.type,
  number: i.number,
  status: i.status,
  is_overdue: isOverdue(i, now),
  customer_name: i.customerName,
  issue_date: i.issueDate,
  due_date: i.dueDate,
  lines: i.lines.map(lineJson),
  subtotal: nairaJson(i.subtotal),
  discount_total: nairaJson(i.discountTotal),
  vat_total: nairaJson(i.vatTotal),
  prices_include_vat: i.pricesIncludeVat,
  total: nairaJson(i.total),
  amount_paid: nairaJson(i.amountPaid),
  balance_due: nairaJson(balanceDue(i)),
  payments: i.payments.map((p) => ({ amount: nairaJson(p.amount), method: p.method, paid_at: dateTimeJson(p.paidAt) })),
  bank: { bank_name: b.bankName, account_number: b.accountNumber, account_name: b.accountName },
  notes: i.notes,
  footer: b.invoiceFooter,
  pdf_url: `${url}/pdf`,
  can_pay_online: i.type !== 'PROFORMA' && balanceDue(i) > 0,
});
const date = doc('date', { type: 'string', format: 'date', examples: ['2026-11-21'] });
const publicShape = shape(
  'PublicInvoice',
  {
    business: shape('PublicInvoiceBusiness', { name: str, address: nullableStr, phone: nullableStr, email: nullableStr, tin: nullableStr }, { tin: 'on a TAX_INVOICE only' }),
    type: doc('invoice type', { type: 'string', enum: [...INVOICE_TYPES] }),
    number: str,
    status: doc('invoice status', { type: 'string', enum: INVOICE_STATUSES.filter((s) => s !== 'DRAFT' && s !== 'CANCELLED') }),
    is_overdue: bool,
    customer_name: str,
    issue_date: date,
    due_date: date,
    lines: doc('InvoiceLines', { type: 'array', items: jsonSchemaOf(lineShape) }),
    subtotal: naira,
    discount_total: naira,
    vat_total: naira,
    prices_include_vat: doc('boolean or null', { type: ['boolean', 'null'] }),
    total: naira,
    amount_paid: naira,
    balance_due: naira,
    payments: doc('PublicInvoicePayments', { type: 'array', items: jsonSchemaOf(shape('PublicInvoicePayment', { amount: naira, method: str, paid_at: doc('date-time', { type: 'string', format: 'date-time' }) })) }),
    bank: shape('InvoiceBankDetails', { bank_name: nullableStr, account_number: nullableStr, account_name: nullableStr }),
    notes: nullableStr,
    footer: nullableStr,
    pdf_url: str,
    can_pay_online: bool,
  },
  { prices_include_vat: 'null: no VAT (the business was not VAT-registered)', can_pay_online: 'Pay now is offered: a balance is left and it is not a proforma' },
);

/** The page's own headers: its strict CSP (no script, no asset, the inline style by hash), kept out of search engines and caches. */
const PAGE_HEADERS = { 'Content-Security-Policy': INVOICE_PAGE_CSP, 'X-Robots-Tag': 'noindex', 'Referrer-Policy': 'no-referrer' };

export const invoicePageRoutes = (uc: InvoicePageUseCases) => {
  const urlOf = (token: string) => shareUrl(uc.publicBaseUrl, token);
  const seeOther = (location: string): Reply => ({
    status: 303,
    message: 'See other',
    data: `<!doctype html><meta charset="utf-8"><title>Redirecting</title><p><a href="${escapeHtml(location)}">Continue</a></p>`,
    headers: { Location: location, ...PAGE_HEADERS },
  });
  return [
    route({
      method: 'get',
      path: '/public/invoices/:token',
      operationId: 'viewPublicInvoice',
      tag: TAG,
      summary: "The customer's invoice page (public; the share link)",
      description:
        'No sign-in: the token in share_url is the secret. A server-rendered HTML page (no script, no third-party asset, a strict Content-Security-Policy) ' +
        'when the client asks for text/html or names no type; with Accept: application/json the same facts as JSON (PublicInvoice, in the envelope). ' +
        'An unknown token, a draft and a cancelled invoice are 404 RESOURCE_NOT_FOUND. reference (and trxref): the payment gateway sends the payer back ' +
        'with them after Pay now; the payment is then checked with the gateway and, if it succeeded, recorded once as an ONLINE payment.',
      access: 'public',
      rateLimit: 'ip',
      pathParams: TOKEN,
      query: object('InvoicePageQuery', {}, { reference: text(1, 100, "the gateway's payment reference (sent back by the gateway)"), trxref: text(1, 100, 'the same reference, as Paystack also sends it') }),
      success: {
        status: 200,
        description: 'The invoice',
        data: publicShape,
        alternatives: { 'text/html': 'the HTML page' },
        headers: { 'Content-Security-Policy': 'on the HTML page: ' + INVOICE_PAGE_CSP },
      },
      failures: failuresOf<FailureOf<typeof uc.viewPublicInvoice>>({ NotFound: true }),
      errors: [],
      handler: async ({ params, query, mediaType, ctx }) => {
        const reference = query.reference ?? query.trxref;
        if (reference) await uc.verifyInvoicePayment(params.token, reference);
        const found = successOf(await uc.viewPublicInvoice(params.token), 'invoice');
        const now = uc.clock.now();
        const url = urlOf(params.token);
        // HTML unless JSON is asked for: a link opened from WhatsApp, or by hand with no Accept, is a page
        if (mediaType === 'application/json' && ctx.get('accept')) return { status: 200, message: 'Invoice', data: publicJson(found, now, url) };
        const pay = found.invoice.type !== 'PROFORMA' && balanceDue(found.invoice) > 0 ? `${params.token}/pay` : undefined;
        return okFile('Invoice page', { contentType: HTML, body: uc.renderInvoicePage(found, now, { pdf: `${params.token}/pdf`, pay }) }, PAGE_HEADERS);
      },
    }),
    route({
      method: 'get',
      path: '/public/invoices/:token/pdf',
      operationId: 'downloadPublicInvoicePdf',
      tag: TAG,
      summary: "The invoice's PDF (public; the share link's)",
      description: 'An A4 PDF with the business, lines, VAT breakdown, bank details and a QR code of the share link. 404 as the page.',
      access: 'public',
      rateLimit: 'ip',
      pathParams: TOKEN,
      success: { status: 200, description: 'The PDF', contentType: PDF, data: doc('InvoicePdf', { type: 'string', format: 'binary' }), headers: { 'Content-Disposition': 'inline; filename="{number}.pdf"' } },
      failures: failuresOf<FailureOf<typeof uc.viewPublicInvoice>>({ NotFound: true }),
      errors: [],
      handler: async ({ params }) => {
        const found = successOf(await uc.viewPublicInvoice(params.token), 'invoice');
        const pdf = await uc.renderInvoicePdf(found, urlOf(params.token));
        return { status: 200, message: 'Invoice PDF', data: pdf, headers: { 'Content-Disposition': `inline; filename="${found.invoice.number}.pdf"` } };
      },
    }),
    route({
      method: 'post',
      path: '/public/invoices/:token/pay',
      operationId: 'payPublicInvoice',
      tag: TAG,
      summary: 'Pay now (public; the page\'s form)',
      description:
        "The page's Pay now button (a plain form, no script): starts a checkout for the whole balance at the payment gateway (Paystack when configured, " +
        'else the sandbox) and answers 303 to its checkout page; the gateway sends the payer back to the page, which records the payment once it is ' +
        'confirmed (or the gateway\'s webhook does; exactly once either way). Nothing left to pay (paid meanwhile): 303 back to the page. Each press ' +
        'starts a new checkout, which records nothing until paid; so the route needs no Idempotency-Key (it takes none from a browser form).',
      access: 'public',
      rateLimit: 'ip',
      pathParams: TOKEN,
      success: { status: 303, description: 'To the checkout page (Location)', contentType: HTML, data: doc('HtmlPage', { type: 'string', description: 'an HTML page' }), headers: { Location: 'the checkout page' } },
      failures: failuresOf<FailureOf<typeof uc.startInvoiceCheckout>>({ NotFound: true, PaymentGatewayUnavailable: true }),
      errors: [],
      handler: async ({ params }) => {
        const started = successOf(await uc.startInvoiceCheckout(params.token, urlOf(params.token)), 'invoice');
        return seeOther(started === 'nothing_to_pay' ? urlOf(params.token) : started.authorizationUrl);
      },
    }),
    route({
      method: 'get',
      path: '/invoices/:id/pdf',
      operationId: 'downloadInvoicePdf',
      tag: TAG,
      summary: 'An invoice as a PDF',
      description: 'Owner or staff. An A4 PDF with the branding, lines, VAT breakdown by rate, bank details, a PAID mark once paid and a QR code of the share link.',
      access: { roles: OWNER_AND_STAFF },
      rateLimit: 'user',
      success: { status: 200, description: 'The PDF', contentType: PDF, data: doc('InvoicePdf', { type: 'string', format: 'binary' }), headers: { 'Content-Disposition': 'attachment; filename="{number}.pdf"' } },
      failures: failuresOf<FailureOf<typeof uc.invoiceDocument>>({ NotFound: true }),
      errors: [],
      handler: async ({ actor, params }) => {
        const found = successOf(await uc.invoiceDocument(actor, params.id), 'invoice');
        const pdf = await uc.renderInvoicePdf(found, urlOf(found.invoice.shareToken));
        return { status: 200, message: 'Invoice PDF', data: pdf, headers: { 'Content-Disposition': `attachment; filename="${found.invoice.number ?? 'draft'}.pdf"` } };
      },
    }),
    route({
      method: 'post',
      path: '/invoices/:id/share',
      operationId: 'shareInvoice',
      tag: TAG,
      summary: "Send the invoice's share link to its customer",
      description:
        "Owner or staff. Queues a message with the invoice's number, total, due date and share_url to the customer: SMS and WHATSAPP to their phone, " +
        'EMAIL to their e-mail (422 CUSTOMER_HAS_NO_CONTACT without one); 202, sent by the notification queue. A draft or cancelled invoice is 409 ' +
        'INVOICE_NOT_SHAREABLE. Safe to repeat: the same invoice on the same channel within a 10-minute window is queued once (queued: false on the ' +
        'repeats), and the route honours Idempotency-Key. Counts against the plan\'s daily message cap.',
      access: { roles: OWNER_AND_STAFF },
      rateLimit: 'user',
      idempotent: true,
      body: object('ShareInvoiceRequest', { channel: enumOf('channel', NOTIFICATION_CHANNELS) }),
      bodyExample: { channel: 'WHATSAPP' },
      success: {
        status: 202,
        description: 'Queued (or already queued in the window)',
        data: shape('InvoiceShared', { queued: bool, to: str, share_url: str }, { queued: 'false: the same share was queued within the last 10 minutes; nothing new was queued' }),
      },
      failures: failuresOf<FailureOf<typeof uc.shareInvoice>>({ NotFound: true, InvoiceNotShareable: true, CustomerHasNoContact: true, DailyLimitExceeded: true }),
      errors: ['IDEMPOTENCY_IN_PROGRESS', 'IDEMPOTENCY_KEY_REUSED'],
      handler: async ({ actor, params, body }) => {
        const shared = successOf(await uc.shareInvoice(actor, params.id, body.channel), 'invoice');
        return accepted(shared.queued ? 'Share link queued' : 'Share link already queued', { ...shared, share_url: shared.url });
      },
    }),
  ];
};
