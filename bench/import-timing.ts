/**
 * A 10,000-row products import, timed (docs/adr/0041): alone, then while another business reads its
 * products page in a loop (that reader's latencies and failures). PostgreSQL with DATABASE_URL, else
 * the embedded PGlite in a fresh data directory.
 *   npx tsx bench/import-timing.ts [rows]      (IMPORT_ALONE=1: the import alone, no reader)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPostgres } from '../bootstrap/persistence.js';
import { createTestApp, registerOwner, type TestApp } from '../test/support/test-app.js';

const rows = Number(process.argv[2] ?? 10_000);
const csv = (prefix: string) => ['sku,name,price,quantity', ...Array.from({ length: rows }, (_, i) => `${prefix}-${i},Item ${i},100,5`)].join('\n');

const importOnce = async (app: TestApp, token: string, prefix: string) => {
  const started = performance.now();
  const done = await app.request('POST', '/products/import', { token, rawBody: csv(prefix), headers: { 'content-type': 'text/csv' } });
  if (done.status !== 200 || done.body.data.created !== rows) throw new Error(`import: ${done.status} ${done.text.slice(0, 300)}`);
  return Math.round(performance.now() - started);
};

const main = async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'bizops-import-'));
  const persistence = await openPostgres({ ...(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : {}), dataDir, poolMax: 10, log: () => undefined });
  const app = await createTestApp({ persistence });
  try {
    const alone = await registerOwner(app);
    const aloneMs = await importOnce(app, alone.accessToken, `A${Date.now()}`);
    if (process.env.IMPORT_ALONE) return console.log(JSON.stringify({ database: process.env.DATABASE_URL ? 'postgresql' : 'pglite', rows, importAloneMs: aloneMs }));
    const importer = await registerOwner(app);
    const reader = await registerOwner(app);
    let importing = true;
    const loaded = importOnce(app, importer.accessToken, `B${Date.now()}`).finally(() => (importing = false));
    const reads: { status: number; ms: number }[] = [];
    while (importing) {
      const t = performance.now();
      const page = await app.request('GET', '/products?limit=20', { token: reader.accessToken });
      reads.push({ status: page.status, ms: performance.now() - t });
    }
    const loadedMs = await loaded;
    const ms = reads.map((r) => r.ms).sort((a, b) => a - b);
    const at = (q: number) => Math.round(ms[Math.min(ms.length - 1, Math.floor(ms.length * q))] ?? 0);
    console.log(
      JSON.stringify({
        database: process.env.DATABASE_URL ? 'postgresql' : 'pglite',
        rows,
        importAloneMs: aloneMs,
        importWithReaderMs: loadedMs,
        reads: reads.length,
        not200: reads.filter((r) => r.status !== 200).length,
        p50: at(0.5),
        p99: at(0.99),
        max: at(1),
      }),
    );
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
};

await main();
