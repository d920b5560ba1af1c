import { createHmac, timingSafeEqual } from 'node:crypto';
import { GatewayUnavailable, type GatewayTransaction, type PaymentGateway, type PaymentWebhook } from '../../application/loan-packs/ports.js';
import type { GatewayPaymentStatus } from '../../domain/loan-pack.js';

/**
 * Paystack (https://paystack.com/docs/api/transaction/): POST /transaction/initialize and GET
 * /transaction/verify/:reference with the secret key as Bearer, amounts in kobo; webhooks signed with
 * x-paystack-signature, the HMAC-SHA512 (hex) of the raw body keyed with the same secret key.
 */
export interface PaystackSettings {
  readonly secretKey: string;
  readonly baseUrl: string;
  readonly timeoutMs: number;
}

/** Paystack's transaction statuses as this API reads them: only `success` pays; reversed money is not paid. */
const STATUS: Record<string, GatewayPaymentStatus> = { success: 'success', failed: 'failed', abandoned: 'abandoned', reversed: 'failed' };

type Answer = { status: number; body: { status?: unknown; message?: unknown; data?: Record<string, unknown> } | undefined };

const call = async (s: PaystackSettings, method: 'GET' | 'POST', path: string, body?: unknown): Promise<Answer> => {
  const signal = AbortSignal.timeout(s.timeoutMs);
  try {
    const res = await fetch(`${s.baseUrl.replace(/\/+$/, '')}${path}`, {
      method,
      headers: { authorization: `Bearer ${s.secretKey}`, accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
      signal,
    });
    const text = await res.text();
    let json: Answer['body'];
    try {
      json = JSON.parse(text) as Answer['body'];
    } catch {
      json = undefined;
    }
    return { status: res.status, body: json };
  } catch {
    throw new GatewayUnavailable(signal.aborted ? `Paystack did not answer within ${s.timeoutMs} ms` : 'Paystack could not be reached');
  }
};

/** Paystack's own words on a refusal, one bounded line (never the key: it travels only in the header). */
const said = (a: Answer) => String(a.body?.message ?? `HTTP ${a.status}`).replace(/\s+/g, ' ').slice(0, 200);

/** Paystack's charge.success event as its webhook sends it: the transaction it reports. */
const chargeSuccess = (raw: Uint8Array) => {
  try {
    const event = JSON.parse(Buffer.from(raw).toString('utf8')) as { event?: unknown; data?: Record<string, unknown> };
    const d = event.data;
    if (event.event !== 'charge.success' || !d || typeof d.reference !== 'string' || typeof d.amount !== 'number') return undefined;
    const paidAt = typeof d.paid_at === 'string' && !Number.isNaN(Date.parse(d.paid_at)) ? new Date(d.paid_at) : null;
    const transaction: GatewayTransaction = { status: d.status === undefined || d.status === 'success' ? 'success' : 'pending', amount: d.amount, currency: String(d.currency ?? ''), paidAt };
    return { reference: d.reference, transaction };
  } catch {
    return undefined;
  }
};

/** Paystack's webhook: x-paystack-signature must be the HMAC-SHA512 (hex) of the raw body keyed with the secret key. */
export const paystackWebhook = (secretKey: string): PaymentWebhook => ({
  read(raw, signature) {
    const expected = Buffer.from(createHmac('sha512', secretKey).update(raw).digest('hex'));
    const given = Buffer.from(signature.trim().toLowerCase());
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { authentic: false };
    const notice = chargeSuccess(raw);
    return notice ? { authentic: true, notice } : { authentic: true };
  },
});

/** Without a Paystack key there is no secret to check a signature with: no webhook request is authentic. */
export const noWebhook: PaymentWebhook = { read: () => ({ authentic: false }) };

export const paystackGateway = (s: PaystackSettings): PaymentGateway => ({
  name: 'paystack',
  async initialize({ amount, email, reference, callbackUrl }) {
    const a = await call(s, 'POST', '/transaction/initialize', {
      email, amount: String(amount), currency: 'NGN', reference, ...(callbackUrl ? { callback_url: callbackUrl } : {}),
    });
    const data = a.body?.data;
    if (a.status !== 200 || a.body?.status !== true || typeof data?.authorization_url !== 'string' || typeof data.access_code !== 'string') {
      throw new GatewayUnavailable(`Paystack refused to start the payment: ${said(a)}`);
    }
    return { authorizationUrl: data.authorization_url, accessCode: data.access_code };
  },
  async verify(reference): Promise<GatewayTransaction> {
    const a = await call(s, 'GET', `/transaction/verify/${encodeURIComponent(reference)}`);
    const data = a.body?.data;
    // A reference Paystack never saw (the payer never reached the checkout): nothing was paid.
    if ((a.status === 400 || a.status === 404) && a.body?.status === false) return { status: 'abandoned', amount: 0, currency: 'NGN', paidAt: null };
    if (a.status !== 200 || a.body?.status !== true || !data || typeof data.amount !== 'number') throw new GatewayUnavailable(`Paystack could not verify: ${said(a)}`);
    const paidAt = typeof data.paid_at === 'string' && !Number.isNaN(Date.parse(data.paid_at)) ? new Date(data.paid_at) : null;
    return { status: STATUS[String(data.status)] ?? 'pending', amount: data.amount, currency: String(data.currency ?? ''), paidAt };
  },
});
