import type { Product } from '../../domain/product.js';
import type { Actor } from '../../domain/roles.js';
import type { PageRequest } from '../ports/list.js';
import type { ProductSort } from '../ports/repositories.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';

/** Products read per query while exporting: memory stays bounded by one batch, whatever the catalogue's size. */
export const EXPORT_BATCH = 500;

/**
 * Every product of the business, oldest first, read in keyset batches (each batch its own short read,
 * no transaction held open), so an export of any size runs in constant memory. A product created
 * while the export runs may or may not appear; none is skipped or repeated.
 */
export const exportProducts =
  (deps: { uow: UnitOfWork }) =>
  async function* (actor: Actor): AsyncGenerator<Product, void, undefined> {
    let after: PageRequest<ProductSort>['after'];
    do {
      const page = await deps.uow.read((r) =>
        r.products.list(actor.businessId, { sortBy: 'created_at', sortDir: 'asc', limit: EXPORT_BATCH, ...(after ? { after } : {}) }, {}),
      );
      yield* page.items;
      after = page.hasNext ? page.next : undefined;
    } while (after);
  };
