import type { AuditEntry } from '../../domain/audit.js';
import { lagosDate } from '../../domain/lagos-time.js';
import type { Actor } from '../../domain/roles.js';
import type { Clock } from '../ports/clock.js';
import type { Page, PageRequest } from '../ports/list.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import type { AuditFilter, AuditRepositories, AuditSort } from './ports.js';

/** Entries read per query while exporting: memory stays bounded by one batch, however long the log. */
export const AUDIT_EXPORT_BATCH = 500;

/** A page of the business's audit log (the owner's: the route allows no one else). */
export const listAuditLog =
  (deps: { uow: UnitOfWork<AuditRepositories> }) =>
  (actor: Actor, page: PageRequest<AuditSort>, filter: AuditFilter): Promise<Page<AuditEntry>> =>
    deps.uow.read((r) => r.auditLog.list(actor.businessId, page, filter));

export interface AuditExport {
  /** The Lagos day of the export (it names the file). */
  readonly lagosDay: string;
  /** Every entry the filter and the page request's dates select, in its order, batch by batch as the consumer asks. */
  readonly entries: AsyncGenerator<AuditEntry, void, undefined>;
}

/**
 * The entries of the business the filter selects, read in keyset batches (each its own short read, no
 * transaction held open), so an export of any length runs in constant memory.
 */
export const exportAuditLog =
  (deps: { uow: UnitOfWork<AuditRepositories>; clock: Clock }) =>
  (actor: Actor, request: Omit<PageRequest<AuditSort>, 'limit' | 'after'>, filter: AuditFilter): AuditExport => {
    const entries = async function* () {
      let after: PageRequest<AuditSort>['after'];
      do {
        const page = await deps.uow.read((r) => r.auditLog.list(actor.businessId, { ...request, limit: AUDIT_EXPORT_BATCH, ...(after ? { after } : {}) }, filter));
        yield* page.items;
        after = page.hasNext ? page.next : undefined;
      } while (after);
    };
    return { lagosDay: lagosDate(deps.clock.now()), entries: entries() };
  };
