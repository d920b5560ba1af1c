import { retentionCutoffs, type RetentionAges, type RetentionCutoffs } from '../../domain/retention.js';
import type { Clock } from '../ports/clock.js';
import type { IdempotencyStore } from '../ports/idempotency-store.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import type { HousekeepingRepositories, HousekeepingRepository } from './ports.js';

export interface PruneDeps {
  readonly uow: UnitOfWork<HousekeepingRepositories>;
  readonly idempotency: Pick<IdempotencyStore, 'prune'>;
  readonly clock: Clock;
}

export interface PruneOptions {
  readonly ages: RetentionAges;
  /** Rows one statement deletes at most. */
  readonly batch: number;
  /** Statements one run makes at most per kind of row: a backlog is worked off over several runs. */
  readonly maxBatches: number;
}

/** How many rows of each kind a run deleted. */
export type PruneReport = { readonly [K in keyof RetentionAges]: number };

type Pruner = (cutoffs: RetentionCutoffs, limit: number) => (r: HousekeepingRepository) => Promise<number>;
const PRUNERS: { readonly [K in Exclude<keyof RetentionAges, 'idempotencyKeyHours'>]: Pruner } = {
  deliveredEventsHours: (c, n) => (r) => r.pruneDeliveredEvents(c.deliveredEventsHours, n),
  endedSessionsHours: (c, n) => (r) => r.pruneEndedSessions(c.endedSessionsHours, n),
  otpHours: (c, n) => (r) => r.pruneOldOtps(c.otpHours, n),
  webhookDeliveriesHours: (c, n) => (r) => r.pruneSettledWebhookDeliveries(c.webhookDeliveriesHours, n),
};

/**
 * Retention (docs/adr/0068): deletes what is past its age, a batch at a time, each batch its own
 * short transaction that skips rows a request holds, giving way between batches (on the embedded
 * database a waiting request goes first). A kind goes on while its batches come back full, at most
 * `maxBatches` times. The audit log is no kind here: it is never pruned.
 */
export const pruneOldRows =
  (deps: PruneDeps) =>
  async (o: PruneOptions): Promise<PruneReport> => {
    const cutoffs = retentionCutoffs(deps.clock.now(), o.ages);
    const drain = async (batch: () => Promise<number>): Promise<number> => {
      let total = 0;
      for (let i = 0; i < o.maxBatches; i++) {
        const n = await batch();
        total += n;
        if (n < o.batch) break;
        await deps.uow.giveWay(50);
      }
      return total;
    };
    const report: Record<string, number> = {};
    for (const [kind, prune] of Object.entries(PRUNERS) as [keyof typeof PRUNERS, Pruner][]) {
      const batch = prune(cutoffs, o.batch);
      report[kind] = await drain(() => deps.uow.run((r) => batch(r.housekeeping)));
    }
    report.idempotencyKeyHours = await drain(() => deps.idempotency.prune(cutoffs.idempotencyKeyHours, o.batch));
    return report as PruneReport;
  };
