import { createHmac, timingSafeEqual } from 'node:crypto';
import type { GatewayTransaction, PaymentGateway } from '../../application/loan-packs/ports.js';
import type { Clock } from '../../application/ports/clock.js';

/**
 * The sandbox gateway: what runs when no Paystack key is configured, so the whole payment flow works
 * locally. Its checkout is a page this API serves (GET /api/v1/sandbox/checkout/{code}) with Pay and
 * Cancel buttons; no money moves. The code carries the transaction (reference, amount, e-mail,
 * callback), so a checkout link still opens after a restart; what was paid is kept in this process
 * only (a restart forgets it: pay again). The code is signed (an HMAC keyed from the server's secret),
 * so nobody can make a code for another business's reference or alter the amount (docs/adr/0042).
 * Never for production: anyone holding a checkout link can press Pay.
 */

interface SandboxCheckout {
  readonly reference: string;
  readonly amount: number;
  readonly email: string;
  readonly callbackUrl: string | null;
}

/** The signature's length at the end of a code: 16 bytes of HMAC-SHA256, base64url (22 characters, no padding). */
const TAG_LENGTH = 22;

const codec = (secret: Uint8Array) => {
  const key = createHmac('sha256', secret).update('sandbox-checkout').digest();
  const tag = (payload: string) => createHmac('sha256', key).update(payload).digest().subarray(0, 16).toString('base64url');
  const encode = (c: SandboxCheckout) => {
    const payload = Buffer.from(JSON.stringify([c.reference, c.amount, c.email, c.callbackUrl])).toString('base64url');
    return payload + tag(payload);
  };
  /** The checkout of a code this server signed; undefined for a forged, altered or malformed one. */
  const decode = (code: string): SandboxCheckout | undefined => {
    const payload = code.slice(0, -TAG_LENGTH);
    const given = Buffer.from(code.slice(-TAG_LENGTH));
    const expected = Buffer.from(tag(payload));
    if (code.length <= TAG_LENGTH || given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    return parse(payload);
  };
  return { encode, decode };
};

const parse = (payload: string): SandboxCheckout | undefined => {
  try {
    const [reference, amount, email, callbackUrl] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown[];
    if (typeof reference !== 'string' || !Number.isSafeInteger(amount) || typeof email !== 'string' || (callbackUrl !== null && typeof callbackUrl !== 'string')) return undefined;
    return { reference, amount: amount as number, email, callbackUrl: callbackUrl as string | null };
  } catch {
    return undefined;
  }
};

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const naira = (kobo: number) => `₦${(kobo / 100).toLocaleString('en-NG', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

// Forms post to paths relative to the page (same origin: helmet's CSP allows form-action 'self' only);
// the payer is sent back by a meta refresh, which form-action does not govern, to whatever callback was given.
const page = (title: string, body: string, refresh?: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
${refresh ? `<meta http-equiv="refresh" content="2;url=${escape(refresh)}">` : ''}<title>${escape(title)}</title>
<style>
body{font-family:system-ui,sans-serif;background:#f4f5f7;margin:0;padding:2rem;color:#1d2330}
main{max-width:26rem;margin:auto;background:#fff;border-radius:10px;padding:1.5rem 2rem;box-shadow:0 2px 10px #0002}
.banner{background:#fff3cd;border:1px solid #e0b100;border-radius:6px;padding:.6rem .8rem;font-weight:600}
dl{display:grid;grid-template-columns:auto 1fr;gap:.4rem 1rem}dt{color:#5b6475}dd{margin:0;font-weight:600;word-break:break-all}
.buttons{display:flex;gap:1rem;margin-top:1.5rem}.buttons form{flex:1;display:flex}button{flex:1;font-size:1rem;padding:.8rem;border-radius:6px;border:0;cursor:pointer}
.pay{background:#0a7d3b;color:#fff}.cancel{background:#e4e6eb;color:#1d2330}
</style></head><body><main>
<p class="banner">SANDBOX: this is a test checkout. No money moves and no card is charged.</p>
${body}
</main></body></html>`;

/** Where the payer is sent back, with the reference as Paystack sends it (trxref and reference). */
const backTo = (c: SandboxCheckout) => {
  if (!c.callbackUrl) return undefined;
  const url = new URL(c.callbackUrl);
  url.searchParams.set('trxref', c.reference);
  url.searchParams.set('reference', c.reference);
  return url.toString();
};

/** `secret`: the server's secret (OTP_SECRET or the one in DATA_DIR); the codes' key is derived from it. */
export const sandboxGateway = (publicBaseUrl: string, clock: Clock, secret: Uint8Array) => {
  const { encode, decode } = codec(secret);
  const results = new Map<string, GatewayTransaction>();
  const checkoutUrl = (code: string) => `${publicBaseUrl.replace(/\/+$/, '')}/api/v1/sandbox/checkout/${code}`;
  const gateway: PaymentGateway = {
    name: 'sandbox',
    initialize: async ({ amount, email, reference, callbackUrl }) => {
      const code = encode({ reference, amount, email, callbackUrl });
      return { authorizationUrl: checkoutUrl(code), accessCode: code };
    },
    verify: async (reference) => results.get(reference) ?? { status: 'abandoned', amount: 0, currency: 'NGN', paidAt: null },
  };
  return {
    gateway,
    /** The checkout page of `code`, or undefined for a code this gateway did not make. */
    checkoutPage(code: string): string | undefined {
      const c = decode(code);
      if (!c) return undefined;
      const done = results.get(c.reference);
      const details = `<h1>Pay for loan pack</h1><dl><dt>Reference</dt><dd>${escape(c.reference)}</dd><dt>Amount</dt><dd>${naira(c.amount)}</dd><dt>E-mail</dt><dd>${escape(c.email)}</dd></dl>`;
      if (done?.status === 'success') return page('Sandbox checkout', `${details}<p>This payment is already complete.</p>`);
      return page(
        'Sandbox checkout',
        `${details}<div class="buttons">
<form method="post" action="${code}/pay"><button class="pay" type="submit">Pay ${naira(c.amount)}</button></form>
<form method="post" action="${code}/cancel"><button class="cancel" type="submit">Cancel</button></form></div>`,
      );
    },
    /** Pay or Cancel pressed: the transaction succeeds (for the amount on the page) or fails; the page sends the payer back. */
    complete(code: string, outcome: 'pay' | 'cancel'): string | undefined {
      const c = decode(code);
      if (!c) return undefined;
      if (results.get(c.reference)?.status !== 'success') {
        results.set(c.reference, outcome === 'pay' ? { status: 'success', amount: c.amount, currency: 'NGN', paidAt: clock.now() } : { status: 'failed', amount: c.amount, currency: 'NGN', paidAt: null });
      }
      const back = backTo(c);
      const said = outcome === 'pay' ? 'Payment complete (sandbox).' : 'Payment cancelled (sandbox).';
      return page('Sandbox checkout', `<h1>${said}</h1><p>Reference ${escape(c.reference)}.</p>${back ? `<p><a href="${escape(back)}">Return to the app</a> (you are being sent back).</p>` : '<p>You can close this page.</p>'}`, back);
    },
  };
};

export type SandboxGateway = ReturnType<typeof sandboxGateway>;
