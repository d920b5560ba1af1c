/**
 * How long a request that issues a code takes (docs/adr/0029): 50 registrations, then 50 logins,
 * one at a time, through the real app in this process, with a message provider that takes
 * SEND_DELAY_MS (default 300) per message, as an SMS API over the network does.
 *
 *   npx tsx bench/login-latency.ts                       # embedded PGlite in a temporary directory
 *   DATABASE_URL=postgres://… npx tsx bench/login-latency.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { compose } from '../bootstrap/compose.js';
import { loadConfig } from '../bootstrap/config.js';
import { openPostgres } from '../bootstrap/persistence.js';

const N = 50;
const delay = Number(process.env.SEND_DELAY_MS ?? 300);
const dataDir = mkdtempSync(join(tmpdir(), 'bizops-login-latency-'));
const config = loadConfig({ DATA_DIR: dataDir, RATE_LIMIT_AUTH_PER_IDENTIFIER: '1000', RATE_LIMIT_AUTH_PER_IP: '100000' });
const logger = pino({ level: 'silent' });
let now = Date.now();
const clock = { now: () => new Date(now) };
let sent = 0;
const messages = { send: async () => (await new Promise((r) => setTimeout(r, delay)), sent++, {}) };
const jobOptions = { poolMax: 4, pollingIntervalSeconds: 2, concurrency: 2, maintenanceIntervalSeconds: 60, stopTimeoutMs: 5_000 };
const persistence = await openPostgres({ databaseUrl: process.env.DATABASE_URL, dataDir, poolMax: 10, log: () => undefined, jobs: jobOptions });
const composed: Record<string, any> = await compose(config, persistence, logger, { clock, messages });
await composed.jobs?.start({ workers: true });
composed.dispatcher.start();
const server = createServer(composed.app.callback());
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;

const post = async (path: string, body: unknown) => {
  const started = performance.now();
  const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  await res.text();
  if (res.status >= 300) throw new Error(`${path}: ${res.status}`);
  return performance.now() - started;
};
const stats = (ms: number[]) => {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!.toFixed(1);
  return `median ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${s[s.length - 1]!.toFixed(1)} ms`;
};

const suffix = String(Date.now() % 100_000).padStart(5, '0');
const phones = Array.from({ length: N }, (_, i) => `+23480${suffix}${String(100 + i)}`);
const registrations: number[] = [];
for (const [i, phone] of phones.entries()) registrations.push(await post('/auth/register', { phone, first_name: 'L', last_name: 'T', business_name: `Latency ${i}` }));
now += 120_000; // past the resend cooldown
const logins: number[] = [];
for (const phone of phones) logins.push(await post('/auth/login', { phone }));
const drained = performance.now();
for (let i = 0; i < 600 && sent < 2 * N; i++) await new Promise((r) => setTimeout(r, 100));
console.log(`${persistence.embedded ? 'PGlite' : 'PostgreSQL'}, provider ${delay} ms, ${composed.jobs ? 'job queue' : 'no job queue'}`);
console.log(`register: ${stats(registrations)}`);
console.log(`login:    ${stats(logins)}`);
console.log(`messages sent: ${sent} of ${2 * N}, the last ${((performance.now() - drained) / 1000).toFixed(1)} s after the last answer`);
server.close();
await composed.dispatcher.stop();
await persistence.close();
rmSync(dataDir, { recursive: true, force: true });
