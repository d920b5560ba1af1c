import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake provider received. */
export interface Received {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: unknown;
}

/** How the fake answers the next request: a status, JSON body and headers, or no answer at all (a timeout). */
export type Answer = { readonly status: number; readonly body?: unknown; readonly headers?: Record<string, string> } | 'hang';

/**
 * A local HTTP server on port 0 standing in for a provider's API: it records each request and answers
 * with what the test queued (as the provider's documentation shows), one answer per request.
 */
export const fakeProvider = async () => {
  const received: Received[] = [];
  const answers: Answer[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown = raw;
      try {
        body = JSON.parse(raw);
      } catch {
        // not JSON: keep the text
      }
      received.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      const answer = answers.shift() ?? { status: 500, body: { message: 'the test queued no answer' } };
      if (answer === 'hang') return; // never answers; the client's timeout must end it
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    answer: (...next: Answer[]) => answers.push(...next),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};

export type FakeProvider = Awaited<ReturnType<typeof fakeProvider>>;

/** What a send threw (fails the test if it did not throw). */
export const thrownBy = async (promise: Promise<unknown>): Promise<Error & Record<string, unknown>> => {
  try {
    await promise;
  } catch (error) {
    return error as Error & Record<string, unknown>;
  }
  throw new Error('expected the send to throw, but it succeeded');
};
