import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** A delivery as the receiver got it, and which of its secrets verified it (the `standardwebhooks` package). */
export interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly json: { id: string; type: string; timestamp: string; partner_id: string; data: Record<string, unknown> };
  readonly verifiedWith: string[];
  /** Why verification failed with each secret that did not verify. */
  readonly refusals: string[];
  readonly answered: number | 'hung';
  /** When it arrived (Date.now()). */
  readonly at: number;
}

/**
 * A partner's webhook receiver on loopback. Each request is verified with every secret it knows; a
 * request none verifies is answered 400. `plan` lists the next answers (a status, or 'hang' to never
 * answer); when it is empty, verified requests get 200. `slow.ms`: each answer waits that long (a slow
 * receiver); `concurrency.max`: the most requests it had under way at once.
 */
export const startWebhookReceiver = async () => {
  const received: Received[] = [];
  const secrets: string[] = [];
  const plan: (number | 'hang')[] = [];
  const hung = new Set<import('node:http').ServerResponse>();
  const slow = { ms: 0 };
  const concurrency = { now: 0, max: 0 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    const at = Date.now();
    concurrency.max = Math.max(concurrency.max, ++concurrency.now);
    res.on('close', () => concurrency.now--);
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const verifiedWith: string[] = [];
      const refusals: string[] = [];
      for (const s of secrets) {
        try {
          new Webhook(s).verify(body, req.headers as Record<string, string>);
          verifiedWith.push(s);
        } catch (e) {
          refusals.push((e as Error).message);
        }
      }
      const next = plan.shift() ?? (verifiedWith.length > 0 ? 200 : 400);
      received.push({ headers: req.headers, body, json: JSON.parse(body), verifiedWith, refusals, answered: next === 'hang' ? 'hung' : next, at });
      if (next === 'hang') return void hung.add(res);
      if (slow.ms > 0) await new Promise((r) => setTimeout(r, slow.ms));
      res.writeHead(next, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    secrets,
    plan,
    slow,
    concurrency,
    /** Deliveries of `type` received (in order). */
    of: (type: string) => received.filter((r) => r.json.type === type),
    close: async () => {
      for (const res of hung) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
