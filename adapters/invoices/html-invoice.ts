import { createHash } from 'node:crypto';
import type { PublicInvoice } from '../../application/invoices/public-invoice.js';
import { balanceDue, isOverdue, type InvoiceType } from '../../domain/invoice.js';
import { lagosDate } from '../../domain/lagos-time.js';
import { textDay } from '../../domain/message-format.js';
import { formatNaira } from '../../domain/money.js';
import { basisPointsToPercent } from '../../domain/vat.js';

// The customer's invoice page (docs/adr/0075): server-rendered HTML, no script, no asset from anywhere
// (the style is inline and allowed by its hash), phone first. Every text from the database is escaped.

export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export const INVOICE_TITLES: Record<InvoiceType, string> = { INVOICE: 'Invoice', PROFORMA: 'Proforma invoice', TAX_INVOICE: 'Tax invoice' };
const METHOD_LABELS = { CASH: 'Cash', TRANSFER: 'Bank transfer', CARD: 'Card', POS: 'POS', ONLINE: 'Paid online' } as const;

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#eef1f5;color:#18202c}
main{max-width:40rem;margin:0 auto;background:#fff;padding:1.25rem 1rem 2rem;min-height:100vh}
header{display:flex;gap:.75rem;align-items:center;border-bottom:3px solid #0a5c36;padding-bottom:.75rem}
.badge{flex:none;width:3rem;height:3rem;border-radius:50%;background:#0a5c36;color:#fff;display:flex;align-items:center;justify-content:center;font-weight:700;font-size:1.3rem}
h1{font-size:1.25rem;margin:0}header p{margin:0;color:#556070;font-size:.85rem}
h2{font-size:1.05rem;margin:1.25rem 0 .4rem}
.due{margin:1rem 0;padding:1rem;border-radius:10px;background:#f3f8f5;border:1px solid #cfe3d7}
.due .amount{font-size:1.8rem;font-weight:700;display:block}.overdue{color:#a4161a;font-weight:600}
.paid{margin:1rem 0;padding:.8rem;border:4px solid #0a7d3b;color:#0a7d3b;border-radius:10px;text-align:center;font-size:2rem;font-weight:800;letter-spacing:.3em;transform:rotate(-2deg)}
dl{display:grid;grid-template-columns:auto 1fr;gap:.2rem .8rem;margin:0}dt{color:#556070}dd{margin:0;font-weight:600;overflow-wrap:anywhere}
ul.lines{list-style:none;padding:0;margin:0}ul.lines li{display:flex;justify-content:space-between;gap:1rem;padding:.55rem 0;border-bottom:1px solid #e3e7ec}
.lines small{display:block;color:#556070}.num{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}
table.totals{width:100%;border-collapse:collapse;margin-top:.5rem}table.totals td{padding:.2rem 0}table.totals tr.total td{font-weight:700;border-top:2px solid #18202c;padding-top:.4rem}
.actions{display:flex;flex-direction:column;gap:.75rem;margin-top:1.5rem}
.actions button,.actions a{display:block;width:100%;text-align:center;font-size:1.1rem;padding:.9rem;border-radius:10px;border:0;text-decoration:none;font-weight:600;cursor:pointer}
.actions button{background:#0a5c36;color:#fff}.actions a{background:#e4e8ee;color:#18202c}
footer{margin-top:1.5rem;color:#556070;font-size:.85rem}
`;
/** The CSP allows exactly this style block (by its hash) and nothing else to run or load. */
export const INVOICE_PAGE_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "img-src 'none'",
  // the Pay now form posts here and is redirected to the gateway's checkout (Paystack's, or the sandbox's on this origin)
  "form-action 'self' https://checkout.paystack.com",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

export interface InvoicePageLinks {
  readonly pdf: string;
  /** Where the Pay now form posts; undefined when nothing can be paid online. */
  readonly pay: string | undefined;
}

const initials = (name: string) => (name.trim().split(/\s+/).slice(0, 2).map((w) => [...w][0] ?? '').join('') || '?').toUpperCase();

export const renderInvoicePage = ({ invoice: i, business: b }: PublicInvoice, now: Date, links: InvoicePageLinks): string => {
  const e = escapeHtml;
  const title = `${INVOICE_TITLES[i.type]} ${i.number ?? ''}`.trim();
  const balance = balanceDue(i);
  const vatLabel = i.pricesIncludeVat === null ? '' : i.pricesIncludeVat ? ' (included)' : ' (added)';
  const contact = [b.address, b.phone, b.email].filter((x): x is string => !!x).map(e).join(' · ');
  const lines = i.lines
    .map((l) => {
      const detail = [`${l.quantity} × ${formatNaira(l.unitPrice)}`, l.discount > 0 ? `less ${formatNaira(l.discount)}` : '', l.vatRate > 0 ? `VAT ${basisPointsToPercent(l.vatRate)}% ${formatNaira(l.vatAmount)}` : '']
        .filter(Boolean)
        .join(' · ');
      return `<li><span>${e(l.description)}<small>${e(detail)}</small></span><span class="num">${formatNaira(l.lineTotal)}</span></li>`;
    })
    .join('\n');
  const row = (label: string, amount: string, cls = '') => `<tr${cls ? ` class="${cls}"` : ''}><td>${label}</td><td class="num">${amount}</td></tr>`;
  const totals = [
    row(i.vatTotal > 0 ? 'Subtotal (before VAT)' : 'Subtotal', formatNaira(i.subtotal)),
    i.discountTotal > 0 ? row('Discounts (in the lines)', formatNaira(i.discountTotal)) : '',
    i.pricesIncludeVat !== null ? row(`VAT${vatLabel}`, formatNaira(i.vatTotal)) : '',
    row('Total', formatNaira(i.total), 'total'),
    i.amountPaid > 0 ? row('Paid', formatNaira(i.amountPaid)) : '',
    i.amountPaid > 0 ? row('Balance due', formatNaira(balance)) : '',
  ].join('');
  const payments = i.payments.length
    ? `<h2>Payments</h2><ul class="lines">${i.payments.map((p) => `<li><span>${METHOD_LABELS[p.method]}<small>${e(textDay(lagosDate(p.paidAt)))}</small></span><span class="num">${formatNaira(p.amount)}</span></li>`).join('')}</ul>`
    : '';
  const state =
    i.status === 'PAID'
      ? '<p class="paid" role="status">PAID</p>'
      : i.type === 'PROFORMA'
        ? `<div class="due"><span>Quotation total</span><span class="amount">${formatNaira(i.total)}</span><span>Valid until ${e(textDay(i.dueDate))}</span></div>`
        : `<div class="due"><span>Amount due</span><span class="amount">${formatNaira(balance)}</span><span>Due ${e(textDay(i.dueDate))}</span>${isOverdue(i, now) ? '<span class="overdue"> · Overdue</span>' : ''}</div>`;
  const bank =
    b.bankName || b.accountNumber || b.accountName
      ? `<h2>Pay by bank transfer</h2><dl>${b.bankName ? `<dt>Bank</dt><dd>${e(b.bankName)}</dd>` : ''}${b.accountNumber ? `<dt>Account number</dt><dd>${e(b.accountNumber)}</dd>` : ''}${b.accountName ? `<dt>Account name</dt><dd>${e(b.accountName)}</dd>` : ''}${i.number ? `<dt>Reference</dt><dd>${e(i.number)}</dd>` : ''}</dl>`
      : '';
  const pay = links.pay && balance > 0 && i.type !== 'PROFORMA' ? `<form method="post" action="${e(links.pay)}"><button type="submit">Pay ${formatNaira(balance)} now</button></form>` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${e(title)} · ${e(b.name)}</title><style>${STYLE}</style></head>
<body><main>
<header><div class="badge" aria-hidden="true">${e(initials(b.name))}</div><div><h1>${e(b.name)}</h1>${contact ? `<p>${contact}</p>` : ''}${i.type === 'TAX_INVOICE' && b.tin ? `<p>TIN ${e(b.tin)} · VAT registered</p>` : ''}</div></header>
<h2>${e(title)}</h2>
<dl><dt>Billed to</dt><dd>${e(i.customerName)}</dd><dt>Issued</dt><dd>${e(textDay(i.issueDate))}</dd><dt>Due</dt><dd>${e(textDay(i.dueDate))}</dd></dl>
${state}
<h2>Items</h2>
<ul class="lines">
${lines}
</ul>
<table class="totals">${totals}</table>
${payments}
${i.status === 'PAID' ? '' : bank}
<div class="actions">${pay}<a href="${e(links.pdf)}" download>Download PDF</a></div>
${i.notes ? `<footer><p>${e(i.notes)}</p></footer>` : ''}${b.invoiceFooter ? `<footer><p>${e(b.invoiceFooter)}</p></footer>` : ''}
</main></body></html>`;
};
