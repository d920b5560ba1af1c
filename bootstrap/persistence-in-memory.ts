import type { UnitOfWork } from '../application/ports/unit-of-work.js';
import type { IdempotencyStore } from '../application/ports/idempotency-store.js';
import type { Outbox } from '../application/ports/outbox.js';
import type { JobQueue } from '../application/ports/job-queue.js';
import type { MemberCache } from '../application/ports/member-cache.js';
// Types only (erased): the embedder loads no SQL module (docs/adr/0050).
import type { ChannelListener } from '../adapters/persistence/sql/channel-listener.js';
import type { ReportsDatabase } from '../adapters/persistence/sql/reports-database.sql.js';
import { inMemoryEventsModule, inMemoryOutbox } from '../adapters/persistence/in-memory/outbox.in-memory.js';
import { inMemoryIdempotencyStore } from '../adapters/persistence/in-memory/idempotency-store.in-memory.js';
import { inMemoryStore, type InMemoryModule } from '../adapters/persistence/in-memory/in-memory-store.js';
import { inMemoryAuthModule } from '../adapters/persistence/in-memory/auth.in-memory.js';
import { inMemoryBusinessModule } from '../adapters/persistence/in-memory/business.in-memory.js';
import { inMemoryCustomersModule } from '../adapters/persistence/in-memory/customers.in-memory.js';
import { inMemoryExpensesModule } from '../adapters/persistence/in-memory/expenses.in-memory.js';
import { inMemoryProductsModule } from '../adapters/persistence/in-memory/products.in-memory.js';
import { inMemorySalesModule } from '../adapters/persistence/in-memory/sales.in-memory.js';
import { inMemoryReturnsModule } from '../adapters/persistence/in-memory/returns.in-memory.js';
import { inMemoryInvoicesModule } from '../adapters/persistence/in-memory/invoices.in-memory.js';
import { inMemoryReportsModule } from '../adapters/persistence/in-memory/reports.in-memory.js';
import { inMemoryNotificationsModule } from '../adapters/persistence/in-memory/notifications.in-memory.js';
import { inMemoryReportExportsModule } from '../adapters/persistence/in-memory/report-exports.in-memory.js';
import { inMemoryLoanPacksModule } from '../adapters/persistence/in-memory/loan-packs.in-memory.js';
import { inMemorySyncModule } from '../adapters/persistence/in-memory/sync.in-memory.js';
import { inMemoryPartnersModule } from '../adapters/persistence/in-memory/partners.in-memory.js';
import { inMemoryWebhooksModule } from '../adapters/persistence/in-memory/webhooks.in-memory.js';
import { inMemoryHousekeepingModule } from '../adapters/persistence/in-memory/housekeeping.in-memory.js';
import { inMemoryAuditModule } from '../adapters/persistence/in-memory/audit.in-memory.js';

/*
 * The in-memory half of the persistence wiring, apart from the SQL half (persistence.ts) so that a
 * program embedding us in memory (bootstrap/embed.ts) loads no ORM, driver or queue module
 * (docs/adr/0050). persistence.ts folds the manifests' repositories and checks that the SQL ones
 * hand out the same repositories as these.
 */

/**
 * Every module's repositories in memory. A new module declares its repositories in its manifest
 * (bootstrap/modules/<module>.ts) and adds the in-memory half here too: the embedder loads no manifest
 * (they name SQL repositories and routes). test/unit/bootstrap/modules.test.ts fails when the two differ.
 */
export const IN_MEMORY_MODULES = [
  inMemoryAuthModule,
  inMemoryBusinessModule,
  inMemoryProductsModule,
  inMemorySalesModule,
  inMemoryReturnsModule,
  inMemoryInvoicesModule,
  inMemoryCustomersModule,
  inMemoryExpensesModule,
  inMemoryEventsModule,
  inMemoryReportExportsModule,
  inMemoryReportsModule,
  inMemoryNotificationsModule,
  inMemoryLoanPacksModule,
  inMemorySyncModule,
  inMemoryPartnersModule,
  inMemoryWebhooksModule,
  inMemoryHousekeepingModule,
  inMemoryAuditModule,
] as const;

type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** Every module's repositories together: what the unit of work hands out (each use case names the few it uses). */
export type AppRepositories = Intersection<(typeof IN_MEMORY_MODULES)[number] extends infer M ? (M extends InMemoryModule<any, infer R, any> ? R : never) : never>;

/** What every persistence adapter provides (persistence.ts's `Persistence` adds what only PostgreSQL has). */
export interface PersistenceCore {
  readonly uow: UnitOfWork<AppRepositories>;
  readonly idempotency: IdempotencyStore;
  /** The events use cases recorded, as the dispatcher delivers them. */
  readonly outbox: Outbox;
  /** `select 1` with a deadline. `busy`: no answer in time, but the database is alive and serving others in turn. */
  ping(timeoutMs: number): Promise<{ up: boolean; ms: number; error?: string; busy?: boolean }>;
  isUnavailable(error: unknown): boolean;
  /** The error as it may be written to the log (no row data). */
  redact(error: unknown): unknown;
  close(): Promise<void>;
}

/** The persistence the application runs on, whichever adapter provides it. */
export interface Persistence extends PersistenceCore {
  /** The job queue on this database (pg-boss), when asked for; without one, jobs run in process (docs/adr/0029). */
  readonly jobs?: JobQueue;
  /** The member check's reads remembered while changes are heard (docs/adr/0036): a PostgreSQL server, or the embedded database. */
  readonly memberCache?: MemberCache;
  /** Where report and export reads go when REPORTS_DATABASE_URL is set (docs/adr/0035); unset, the primary. */
  readonly reports?: Pick<ReportsDatabase<AppRepositories>, 'uow' | 'dataAsOf'>;
  /**
   * Calls `heard` for each notice on `channel` from any process (LISTEN, its own connection): only on a
   * PostgreSQL server. Embedded, one process writes, and it wakes its own loops (docs/adr/0043).
   */
  readonly listen?: (channel: string, heard: () => void) => ChannelListener;
  /** The database pool now (in use, waiting, its size) and the statements cut by the timeout so far: the metrics' (docs/adr/0065). */
  readonly poolStats?: () => { readonly inUse: number; readonly waiting: number; readonly max: number; readonly statementTimeouts: number };
}

/** Every module's repositories in memory, in one store (unit tests, embedders). */
export const inMemoryUnitOfWork = (): UnitOfWork<AppRepositories> => inMemoryStore(IN_MEMORY_MODULES);

export const inMemory = (options: { idempotencyLeaseMs: number } = { idempotencyLeaseMs: 30_000 }): PersistenceCore => {
  const uow = inMemoryUnitOfWork();
  return {
    uow,
    idempotency: inMemoryIdempotencyStore({ leaseMs: options.idempotencyLeaseMs ?? 30_000 }),
    outbox: inMemoryOutbox(uow),
    ping: async () => ({ up: true, ms: 0 }),
    isUnavailable: () => false,
    redact: (error) => error,
    close: async () => undefined,
  };
};
