import type { Branch, Business } from '../../../domain/business.js';
import { basisPointsToPercent } from '../../../domain/vat.js';
import type { StaffMember } from '../../../application/business/ports.js';
import { bool, dateTime, doc, nullableStr, shape, str, uuid } from '../codecs.js';
import { dateTimeJson } from '../json-values.js';

/** JSON views of resources (snake_case, ISO times) and their documented shapes. */
export const businessJson = (b: Business) => ({
  id: b.id,
  name: b.name,
  phone: b.phone,
  email: b.email,
  address: b.address,
  category: b.category,
  logo_url: b.logoUrl,
  plan: b.plan,
  currency: b.currency,
  timezone: b.timezone,
  vat_registered: b.vatRegistered,
  tin: b.tin,
  vat_rate: basisPointsToPercent(b.vatRate),
  prices_include_vat: b.pricesIncludeVat,
  payment_terms_days: b.paymentTermsDays,
  bank_name: b.bankName,
  account_number: b.accountNumber,
  account_name: b.accountName,
  invoice_footer: b.invoiceFooter,
  created_at: dateTimeJson(b.createdAt),
  updated_at: dateTimeJson(b.updatedAt),
});

export const businessShape = shape('Business', {
  id: uuid,
  name: str,
  phone: nullableStr,
  email: nullableStr,
  address: nullableStr,
  category: nullableStr,
  logo_url: nullableStr,
  plan: doc('plan', { type: 'string', enum: ['FREE', 'STARTER', 'BUSINESS', 'PRO'] }),
  currency: str,
  timezone: str,
  vat_registered: bool,
  tin: nullableStr,
  vat_rate: doc('VAT rate', { type: 'number', minimum: 0, maximum: 100, multipleOf: 0.01, examples: [7.5] }),
  prices_include_vat: bool,
  payment_terms_days: doc('integer', { type: 'integer', minimum: 0, maximum: 365 }),
  bank_name: nullableStr,
  account_number: nullableStr,
  account_name: nullableStr,
  invoice_footer: nullableStr,
  created_at: dateTime,
  updated_at: dateTime,
}, {
  vat_registered: 'VAT-registered (docs/adr/0054): sales carry VAT per line, receipts print the TIN and the VAT breakdown, revenue in reports is net of VAT',
  tin: 'Tax Identification Number (12345678-0001 or 1234567890); required while vat_registered',
  vat_rate: 'the VAT rate new sales are charged, a percentage (7.5 by default, the Nigerian rate)',
  prices_include_vat: 'shelf prices hold the VAT (true, the default) or it is added on top (false)',
  payment_terms_days: 'days from issue to due date of new invoices (docs/adr/0072)',
  account_number: 'the 10-digit NUBAN invoices ask customers to pay into',
});

export const branchJson = (b: Branch) => ({
  id: b.id,
  name: b.name,
  address: b.address,
  phone: b.phone,
  is_default: b.isDefault,
  created_at: dateTimeJson(b.createdAt),
  updated_at: dateTimeJson(b.updatedAt),
});

export const branchShape = shape('Branch', {
  id: uuid,
  name: str,
  address: nullableStr,
  phone: nullableStr,
  is_default: bool,
  created_at: dateTime,
  updated_at: dateTime,
});

export const staffJson = (m: StaffMember) => ({
  id: m.id,
  user_id: m.userId,
  first_name: m.firstName,
  last_name: m.lastName,
  phone: m.phone,
  email: m.email,
  role: m.role,
  branch_id: m.branchId,
  status: m.status,
  created_at: dateTimeJson(m.createdAt),
  updated_at: dateTimeJson(m.updatedAt),
});

export const staffShape = shape('StaffMember', {
  id: uuid,
  user_id: uuid,
  first_name: str,
  last_name: str,
  phone: nullableStr,
  email: nullableStr,
  role: doc('role', { type: 'string', enum: ['BUSINESS_OWNER', 'STAFF'] }),
  branch_id: doc('uuid or null', { type: ['string', 'null'], format: 'uuid' }),
  status: doc('status', { type: 'string', enum: ['INVITED', 'ACTIVE', 'DEACTIVATED'] }),
  created_at: dateTime,
  updated_at: dateTime,
});
