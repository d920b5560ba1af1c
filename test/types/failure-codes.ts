// Type-level tests of adapters/http/failure-codes.ts (docs/adr/0051): compiled by `npm run typecheck`, never run.
import type * as E from 'fp-ts/lib/Either.js';
import { failuresOf, type CodesOf, type FailureOf } from '../../adapters/http/failure-codes.js';
import type { NotFound } from '../../application/business/errors.js';
import type { SaleAlreadyVoided } from '../../application/sales/void-sale.js';

type VoidSale = (id: string) => Promise<E.Either<NotFound | SaleAlreadyVoided, { id: string }>>;

// exactly the use case's failures
failuresOf<FailureOf<VoidSale>>({ NotFound: true, SaleAlreadyVoided: true });
// @ts-expect-error -- a failure of the use case left out: its code would be missing from the document
failuresOf<FailureOf<VoidSale>>({ NotFound: true });
// @ts-expect-error -- a failure the use case cannot answer
failuresOf<FailureOf<VoidSale>>({ NotFound: true, SaleAlreadyVoided: true, DuplicateSku: true });

// the codes a failure union can be answered with
const codes: CodesOf<FailureOf<VoidSale>>[] = ['RESOURCE_NOT_FOUND', 'SALE_ALREADY_VOIDED'];
// @ts-expect-error -- not a code of these failures
const other: CodesOf<FailureOf<VoidSale>> = 'DUPLICATE_SKU';
void [codes, other];
