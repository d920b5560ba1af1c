/**
 * A small shop client, written the way a user of the served OpenAPI document writes one: the types come
 * from `openapi-typescript <document> -o schema.ts`, the requests go through openapi-fetch, and nothing
 * casts or escapes the generated types. test/http/generated-client.http.test.ts generates schema.ts from
 * the running app's document, type-checks this file against it with TypeScript 5 (strict) and runs it.
 * (This folder's schema.ts exists only in that test's temporary copy; tsconfig.json leaves this file out.)
 */
import createClient from 'openapi-fetch';
import type { components, paths } from './schema.js';

type Schemas = components['schemas'];
export type Product = Schemas['Product'];
export type ProductPage = Schemas['ProductPage'];
export type Sale = Schemas['Sale'];
export type SaleRequest = Schemas['SaleRequest'];
export type Receipt = Schemas['Receipt'];
export type Customer = Schemas['Customer'];
export type ErrorEnvelope = Schemas['ErrorEnvelope'];
export type Problem = Schemas['Problem'];
export type LoanPackDocument = Schemas['LoanPackDocument'];
export type SyncOperation = Schemas['SyncOperation'];
export type SyncOperationResult = Schemas['SyncOperationResult'];
export type SendNotificationRequest = Schemas['SendNotificationRequest'];
export type ErrorCode = ErrorEnvelope['error']['code'];

/** A failure the API answered, with its error envelope. */
export class ApiError extends Error {
  constructor(
    readonly step: string,
    readonly envelope: ErrorEnvelope,
  ) {
    super(`${step}: ${envelope.error.status} ${envelope.error.code} ${envelope.error.detail}`);
  }
}

/** The body of a success, or the failure thrown with its envelope. */
const ok = <T>(step: string, result: { data: T; error?: never } | { data?: never; error: ErrorEnvelope }): T => {
  if (result.error !== undefined) throw new ApiError(step, result.error);
  return result.data;
};

/** Naira with kobo, the way the till prints it. */
export const naira = (amount: number): string => `NGN ${amount.toFixed(2)}`;

export interface ShopOptions {
  /** e.g. http://127.0.0.1:8080/api/v1 */
  readonly baseUrl: string;
  /** the owner's phone, E.164 */
  readonly phone: string;
  /** where the one-time code sent to the phone is read */
  readonly readCode: (phone: string) => string | Promise<string>;
}

export interface ShopRun {
  readonly product: Product;
  readonly page: ProductPage;
  readonly sale: Sale;
  /** the same sale sent again with the same Idempotency-Key: the stored answer, marked replayed */
  readonly replay: { readonly sale: Sale; readonly replayed: boolean };
  readonly receipt: Receipt;
  readonly customer: Customer;
  /** a sale of more than is in stock, refused */
  readonly refused: { readonly status: number; readonly code: ErrorCode; readonly envelope: ErrorEnvelope };
  readonly till: string;
}

/** Registers a business, signs in with the code, stocks a product, sells it, prints the receipt. */
export const runShop = async (options: ShopOptions): Promise<ShopRun> => {
  const open = createClient<paths, 'application/json'>({ baseUrl: options.baseUrl });
  ok('register', await open.POST('/auth/register', { body: { phone: options.phone, first_name: 'Ada', last_name: 'Obi', business_name: 'Ada Stores' } }));
  const otp = await options.readCode(options.phone);
  const tokens = ok('verify', await open.POST('/auth/verify-otp', { body: { phone: options.phone, otp } })).data;

  const api = createClient<paths, 'application/json'>({ baseUrl: options.baseUrl, headers: { authorization: `${tokens.token_type} ${tokens.access_token}` } });
  const product: Product = ok(
    'create product',
    await api.POST('/products', { body: { name: 'Peak Milk 400g', sku: `PEAK-${Date.now()}`, price: 1500, cost_price: 1200, quantity: 10, unit: 'tin' } }),
  ).data;
  const page: ProductPage = ok('list products', await api.GET('/products', { params: { query: { limit: 10 } } })).data;

  const order: SaleRequest = { items: [{ product_id: product.id, quantity: 2 }], payment_method: 'CASH', amount_tendered: 5000 };
  const key = crypto.randomUUID();
  const sell = () => api.POST('/sales', { params: { header: { 'Idempotency-Key': key } }, body: order });
  const sale: Sale = ok('record sale', await sell()).data;
  const again = await sell();
  const replay = { sale: ok('replay sale', again).data, replayed: again.response.headers.get('Idempotent-Replayed') === 'true' };

  const receipt: Receipt = ok('receipt', await api.GET('/sales/{id}/receipt', { params: { path: { id: sale.id } }, headers: { accept: 'application/json' } })).data;
  const customer: Customer = ok('create customer', await api.POST('/customers', { body: { name: 'Chidi Okeke', phone: '+2348031112222', credit_limit: 20000 } })).data;

  const tooMany = await api.POST('/sales', { body: { items: [{ product_id: product.id, quantity: 1000 }], payment_method: 'CASH' } });
  if (tooMany.error === undefined) throw new Error(`a sale of 1000 out of ${product.quantity} was recorded: ${tooMany.data.data.receipt_number}`);
  const refused = { status: tooMany.response.status, code: tooMany.error.error.code, envelope: tooMany.error };

  const change = sale.change_due === null ? 'no change' : `change ${naira(sale.change_due)}`;
  const till = `${receipt.receipt_number} ${receipt.lines.map((l) => `${l.quantity} x ${l.name}`).join(', ')} total ${naira(sale.total)}, ${change}`;
  return { product, page, sale, replay, receipt, customer, refused, till };
};

export interface BackOfficeOptions {
  /** e.g. http://127.0.0.1:8080/api/v1 */
  readonly baseUrl: string;
  /** an owner's access token, on a plan whose loan packs are ready when made */
  readonly accessToken: string;
  /** a number to text (the client first makes it a customer's) */
  readonly textTo: string;
  /** a `since` cursor the till kept from another server */
  readonly foreignCursor: string;
}

export interface BackOfficeRun {
  /** the pack's canonical JSON, downloaded with Accept: application/json */
  readonly loanPack: { readonly reference: string; readonly document: LoanPackDocument; readonly headline: string };
  /** a till's queue: a customer, a sale on credit to them, a payment by them, and a sale of a product that does not exist */
  readonly sync: { readonly results: readonly SyncOperationResult[]; readonly rejectedCode: ErrorCode | undefined; readonly rejectedStatus: number | undefined };
  readonly notification: { readonly status: Schemas['Notification']['status']; readonly to: string };
  /** the products import: the CSV file uploaded in a form (multipart/form-data) */
  readonly imported: { readonly created: number; readonly updated: number };
  readonly inventoryCsv: string;
  /** GET /sync/changes with a cursor this server did not make */
  readonly foreignPull: { readonly status: number; readonly code: ErrorCode | undefined };
}

/** What an owner's back office does besides selling: a loan pack, a till's offline queue, a text, an import, exports. */
export const runBackOffice = async (options: BackOfficeOptions): Promise<BackOfficeRun> => {
  const api = createClient<paths, 'application/json'>({ baseUrl: options.baseUrl, headers: { authorization: `Bearer ${options.accessToken}` } });

  const pack = ok('create loan pack', await api.POST('/reports/loan-pack', { body: { months: 6, purpose: 'Restock' } })).data;
  const document: LoanPackDocument = ok(
    'download loan pack',
    await api.GET('/reports/loan-pack/{reference}/download', { params: { path: { reference: pack.reference } }, headers: { accept: 'application/json' } }),
  );
  const headline = `${document.reference} ${document.period_start}..${document.period_end}: revenue ${document.totals.revenue} naira over ${document.monthly.length} months`;

  const product = ok('create product', await api.POST('/products', { body: { name: 'Golden Penny Semovita 1kg', price: 1200, quantity: 20 } })).data;
  const customerId = crypto.randomUUID();
  const queue: SyncOperation[] = [
    { op_id: crypto.randomUUID(), type: 'customer.create', payload: { id: customerId, client_created_at: new Date().toISOString(), name: 'Mama Chioma', credit_limit: 50000 } },
    {
      op_id: crypto.randomUUID(),
      type: 'sale.create',
      payload: { items: [{ product_id: product.id, quantity: 2 }], payment_method: 'CREDIT', customer_id: customerId, provisional_receipt_number: 'TILL1-000001' },
    },
    { op_id: crypto.randomUUID(), type: 'credit_payment.create', payload: { customer_id: customerId, amount: 1000, payment_method: 'CASH' } },
    { op_id: crypto.randomUUID(), type: 'sale.create', payload: { items: [{ product_id: crypto.randomUUID(), quantity: 1 }], payment_method: 'CASH' } },
  ];
  const batch = ok('sync batch', await api.POST('/sync/batch', { body: { device_id: 'till-1', operations: queue } })).data;
  const rejected = batch.results.find((r) => r.status === 'rejected');

  ok('create customer', await api.POST('/customers', { body: { name: 'Emeka Obi', phone: options.textTo } }));
  const texted = ok('send sms', await api.POST('/notifications/sms', { body: { template: 'CUSTOM', to: options.textTo, message: 'Fresh stock is in.' } })).data;

  const form = new FormData();
  form.append('file', new Blob([`name,sku,price,quantity\nPeak Milk 400g,PEAK-400,1500,12\n`], { type: 'text/csv' }), 'products.csv');
  const report = ok('import products', await api.POST('/products/import', { params: { query: { dry_run: 'false' } }, body: form })).data;

  const inventory = await api.GET('/reports/inventory/export', { params: { query: { format: 'csv' } }, parseAs: 'text' });
  if (inventory.error !== undefined) throw new ApiError('inventory export', inventory.error);

  const foreign = await api.GET('/sync/changes', { params: { query: { since: options.foreignCursor } } });

  return {
    loanPack: { reference: pack.reference, document, headline },
    sync: { results: batch.results, rejectedCode: rejected?.error?.code, rejectedStatus: rejected?.error?.status },
    notification: { status: texted.status, to: texted.to },
    imported: { created: report.created, updated: report.updated },
    inventoryCsv: inventory.data,
    foreignPull: { status: foreign.response.status, code: foreign.error?.error.code },
  };
};
