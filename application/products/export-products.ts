import { lagosDate } from '../../domain/lagos-time.js';
import type { Product } from '../../domain/product.js';
import type { Actor } from '../../domain/roles.js';
import type { Clock } from '../ports/clock.js';
import type { PageRequest } from '../ports/list.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import type { ProductRepositories, ProductSort } from './ports.js';
import { withBranchStock, type ProductWithStock } from './branch-stock.js';

/** Products read per query while exporting: memory stays bounded by one batch, whatever the catalogue's size. */
export const EXPORT_BATCH = 500;

export interface ProductExport {
  /** The Lagos calendar day of the export (it names the file). */
  readonly lagosDay: string;
  /** Every product, pulled batch by batch as the consumer asks for more (with its stock per branch when asked for). */
  readonly products: AsyncGenerator<Product | ProductWithStock, void, undefined>;
}

/**
 * Every product of the business, oldest first, read in keyset batches (each batch its own short read,
 * no transaction held open), so an export of any size runs in constant memory. A product created
 * while the export runs may or may not appear; none is skipped or repeated.
 */
export const exportProducts =
  (deps: { uow: UnitOfWork<Pick<ProductRepositories, 'products'>>; clock: Clock }) =>
  (actor: Actor, options: { byBranch?: boolean } = {}): ProductExport => {
    const products = async function* () {
      let after: PageRequest<ProductSort>['after'];
      do {
        const page = await deps.uow.read(async (r) => {
          const batch = await r.products.list(actor.businessId, { sortBy: 'created_at', sortDir: 'asc', limit: EXPORT_BATCH, ...(after ? { after } : {}) }, {});
          // one more query a batch for the branches' quantities
          return options.byBranch ? { ...batch, items: await withBranchStock(r, actor.businessId, batch.items) } : batch;
        });
        yield* page.items;
        after = page.hasNext ? page.next : undefined;
      } while (after);
    };
    return { lagosDay: lagosDate(deps.clock.now()), products: products() };
  };
