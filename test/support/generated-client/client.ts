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
