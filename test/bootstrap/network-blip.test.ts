import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { freshDatabaseUrl } from '../support/database.js';
import { startTcpProxy, upstreamOf, type TcpProxy } from '../support/tcp-proxy.js';
import { createTestApp, registerOwner, type TestApp } from '../support/test-app.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A request that fails the test instead of hanging it: 'hung' when no answer comes within `ms`. */
const answerWithin = async (url: string, ms: number, token?: string): Promise<{ status: number | 'hung'; code?: string; ms: number }> => {
  const started = Date.now();
  try {
    const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {}, signal: AbortSignal.timeout(ms) });
    const body = (await res.json().catch(() => undefined)) as { error?: { code?: string } } | undefined;
    return { status: res.status, ...(body?.error?.code ? { code: body.error.code } : {}), ms: Date.now() - started };
  } catch {
    return { status: 'hung', ms: Date.now() - started };
  }
};

describe('a network blip between the API and the database (TCP proxy that drops packets, sockets left open)', function () {
  this.timeout(90_000);
  let proxy: TcpProxy;
  let app: TestApp;

  before(async () => {
    const url = await freshDatabaseUrl();
    proxy = await startTcpProxy(upstreamOf(url));
    app = await createTestApp({
      databaseUrl: proxy.urlFor(url),
      // short timeouts so the test takes seconds: the defaults are the same mechanism, slower
      env: { DB_POOL_MAX: '4', DB_QUERY_TIMEOUT_MS: '1000', DB_STATEMENT_TIMEOUT_MS: '800', DB_CONNECT_TIMEOUT_MS: '500', DB_ACQUIRE_TIMEOUT_MS: '1500' },
    });
  });
  after(async () => {
    await app?.close();
    await proxy?.close();
  });

  it('answers 503 DATABASE_UNAVAILABLE during each of two blips and recovers after each without a restart', async () => {
    const owner = await registerOwner(app);
    const me = `${app.baseUrl}/api/v1/businesses/me`;
    const health = `${app.baseUrl}/api/v1/actuator/health`;
    expect((await answerWithin(me, 5000, owner.accessToken)).status).to.equal(200);

    for (const blip of [1, 2]) {
      proxy.blackhole();
      const started = Date.now();
      // twice the pool's connections: every one of them gets a query that is never answered
      const during = await Promise.all([...Array.from({ length: 8 }, () => answerWithin(me, 6000, owner.accessToken)), answerWithin(health, 6000)]);
      for (const r of during) {
        expect(r.status, `blip ${blip}: ${JSON.stringify(during)}`).to.equal(503);
      }
      expect(during.slice(0, 8).every((r) => r.code === 'DATABASE_UNAVAILABLE'), JSON.stringify(during)).to.equal(true);
      await sleep(Math.max(0, 3000 - (Date.now() - started)));
      proxy.resume();

      // Recovery: the connections that lost their answers were dropped, new ones work.
      let first: Awaited<ReturnType<typeof answerWithin>> | undefined;
      const resumed = Date.now();
      while (Date.now() - resumed < 3000) {
        first = await answerWithin(me, 3000, owner.accessToken);
        if (first.status === 200) break;
      }
      expect(first?.status, `blip ${blip}: recovered within 3 s of the network coming back`).to.equal(200);
      const after = await Promise.all(Array.from({ length: 8 }, () => answerWithin(me, 3000, owner.accessToken)));
      expect(after.map((r) => r.status), `blip ${blip}`).to.deep.equal(Array(8).fill(200));
      const up = await answerWithin(health, 3000);
      expect(up.status, `blip ${blip}: health UP again`).to.equal(200);
    }
  });
});

/** The real server process, its database behind the proxy. */
const startServer = (env: Record<string, string>) =>
  new Promise<{ child: ChildProcess; base: string; lines: string[] }>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bootstrap/main.ts'], {
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines: string[] = [];
    let buffer = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const parts = buffer.split('\n');
      buffer = parts.pop()!;
      for (const line of parts) {
        lines.push(line);
        const port = /"port":(\d+)/.exec(line)?.[1];
        if (port && line.includes('listening')) resolve({ child, base: `http://127.0.0.1:${port}/api/v1`, lines });
      }
    });
    child.stderr!.on('data', (c: Buffer) => lines.push(c.toString()));
    child.on('exit', (code) => reject(new Error(`server exited ${code} before listening:\n${lines.join('\n')}`)));
    setTimeout(() => reject(new Error(`server not listening after 60 s:\n${lines.join('\n')}`)), 60_000);
  });

describe('stopping the server while the database network is down', function () {
  this.timeout(90_000);

  it('ends within SHUTDOWN_TIMEOUT_MS even with requests stuck on a blackholed database', async () => {
    const url = await freshDatabaseUrl();
    const proxy = await startTcpProxy(upstreamOf(url));
    const dataDir = mkdtempSync(join(tmpdir(), 'bizops-blip-'));
    // Long query timeouts: the stop must not depend on them.
    const server = await startServer({ DATABASE_URL: proxy.urlFor(url), DATA_DIR: dataDir, SHUTDOWN_TIMEOUT_MS: '3000', DB_QUERY_TIMEOUT_MS: '120000', DB_STATEMENT_TIMEOUT_MS: '120000' });
    try {
      expect((await fetch(`${server.base}/actuator/health`)).status).to.equal(200);
      proxy.blackhole();
      const stuck = Array.from({ length: 5 }, (_, i) =>
        fetch(`${server.base}/auth/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ phone: `+23480312345${i}0`, first_name: 'Ada', last_name: 'Obi', business_name: 'Blip Stores' }),
        }).then(
          (r) => r.status,
          () => 'cut',
        ),
      );
      await sleep(300);
      const signalled = Date.now();
      server.child.kill('SIGTERM');
      const code = await new Promise<number | null>((resolve) => {
        server.child.once('exit', (c) => resolve(c));
        setTimeout(() => resolve(-1), 10_000);
      });
      const took = Date.now() - signalled;
      await Promise.all(stuck);
      expect(code, `exit code after ${took} ms:\n${server.lines.slice(-5).join('\n')}`).to.not.equal(-1);
      expect(took, 'ms from SIGTERM to exit').to.be.lessThan(3000 + 1000);
    } finally {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
      await proxy.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
