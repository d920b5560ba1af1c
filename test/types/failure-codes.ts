// Type-level tests of adapters/http/failure-codes.ts and bootstrap/failures.ts (docs/adr/0051, 0062): compiled by `npm run typecheck`, never run.
import type * as E from 'fp-ts/lib/Either.js';
import { failure, failuresOf, moduleFailures, type FailureOf } from '../../adapters/http/failure-codes.js';
import { errorCodes, problem as coreProblem } from '../../adapters/http/problem.js';
import type { CategoryInUse, DuplicateCategory } from '../../application/expenses/manage-categories.js';
import type { NotFound } from '../../application/business/errors.js';
import type { SaleAlreadyVoided } from '../../application/sales/void-sale.js';
import type { CodesOf } from '../../bootstrap/failures.js';

type VoidSale = (id: string) => Promise<E.Either<NotFound | SaleAlreadyVoided, { id: string }>>;

// exactly the use case's failures
failuresOf<FailureOf<VoidSale>>({ NotFound: true, SaleAlreadyVoided: true });
// @ts-expect-error -- a failure of the use case left out: its code would be missing from the document
failuresOf<FailureOf<VoidSale>>({ NotFound: true });
// @ts-expect-error -- a failure the use case cannot answer
failuresOf<FailureOf<VoidSale>>({ NotFound: true, SaleAlreadyVoided: true, DuplicateSku: true });

// the codes a failure union can be answered with, read from the modules' definitions
const codes: CodesOf<FailureOf<VoidSale>>[] = ['RESOURCE_NOT_FOUND', 'SALE_ALREADY_VOIDED'];
// @ts-expect-error -- not a code of these failures
const other: CodesOf<FailureOf<VoidSale>> = 'DUPLICATE_SKU';
void [codes, other];

// A module's failures: its codes and each tag's definition, whose problem can answer only the codes it lists.
const { codes: own, problem } = errorCodes({ DUPLICATE_CATEGORY: 409, CATEGORY_IN_USE: 409 });
moduleFailures<DuplicateCategory | CategoryInUse>()(own, {
  DuplicateCategory: failure(['DUPLICATE_CATEGORY'], (f) => problem('DUPLICATE_CATEGORY', f.name)),
  CategoryInUse: failure(['CATEGORY_IN_USE', 'VALIDATION_FAILED'], (_, subject) => (subject === 'sale' ? problem('CATEGORY_IN_USE', 'x') : problem('VALIDATION_FAILED', 'y'))),
});
moduleFailures<DuplicateCategory | CategoryInUse>()(own, {
  DuplicateCategory: failure(['DUPLICATE_CATEGORY'], (f) => problem('DUPLICATE_CATEGORY', f.name)),
  // @ts-expect-error -- answers a code its definition does not list
  CategoryInUse: failure(['CATEGORY_IN_USE'], () => problem('DUPLICATE_CATEGORY', 'x')),
});
// @ts-expect-error -- a tag of the union without its definition
moduleFailures<DuplicateCategory | CategoryInUse>()(own, {
  DuplicateCategory: failure(['DUPLICATE_CATEGORY'], (f) => problem('DUPLICATE_CATEGORY', f.name)),
});
moduleFailures<DuplicateCategory>()(own, {
  DuplicateCategory: failure(['DUPLICATE_CATEGORY'], (f) => problem('DUPLICATE_CATEGORY', f.name)),
  // @ts-expect-error -- a definition of a tag the union lacks
  CategoryInUse: failure(['CATEGORY_IN_USE'], () => problem('CATEGORY_IN_USE', 'x')),
});
moduleFailures<DuplicateCategory>()(own, {
  // @ts-expect-error -- the failure's type is its variant's: no such field
  DuplicateCategory: failure(['DUPLICATE_CATEGORY'], (f) => problem('DUPLICATE_CATEGORY', f.nope)),
});
// @ts-expect-error -- a code neither this module nor the core declares
problem('NO_SUCH_CODE', 'x');
// @ts-expect-error -- the core's problem knows only the shared codes; a module's are its own
coreProblem('DUPLICATE_CATEGORY', 'x');
