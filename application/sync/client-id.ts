import * as E from 'fp-ts/lib/Either.js';
import { canonicalJson } from '../../domain/canonical-json.js';
import type { Crypto } from '../ports/crypto.js';
import { Rollback, rollback } from '../ports/unit-of-work.js';
import type { ClientIdClaim, ClientIdRegistry, ClientRecordKind } from './ports.js';

/** A create naming a client id already used for other content (or another kind of record). */
export type ClientIdConflict = { readonly _tag: 'ClientIdConflict'; readonly id: string };

/** Marks the answer to a create that found its record already made from the same content. */
export type Replayed<A> = A & { readonly replayed?: true };

/** What every offline-capable create may carry: the device's id for the record and its clock's time. */
export interface ClientMade {
  /** A UUID v4 the device generated (the record's id); the server makes one when left out. */
  readonly id?: string;
  readonly clientCreatedAt?: Date;
}

/**
 * Claims a client id inside the create's transaction: `claimed` (go on and make the record under it),
 * `same` (answer the existing record) or `different` (409). `content` is the command as the use case got
 * it, client id and time included.
 */
export const claimClientId = (
  deps: { crypto: Crypto },
  r: { clientIds: ClientIdRegistry },
  businessId: string,
  kind: ClientRecordKind,
  made: ClientMade,
  content: unknown,
  at: Date,
): Promise<ClientIdClaim> =>
  r.clientIds.claim({
    businessId,
    kind,
    id: made.id!,
    fingerprint: deps.crypto.sha256Hex(`${kind}\n${canonicalJson(content)}`),
    clientCreatedAt: made.clientCreatedAt ?? null,
    at,
  });

/**
 * Runs a create's work inside its transaction under a client id, when the command has one: the id is
 * claimed first (before any check that today's state could fail, so a retry finds its record whatever
 * changed since); a record already made from the same content is answered as it is (`replayed`), other
 * content under the id is ClientIdConflict. A refusal after the claim rolls back, freeing the id.
 */
export const underClientId = async <L, A>(
  deps: { crypto: Crypto },
  r: { clientIds: ClientIdRegistry },
  claim: { businessId: string; kind: ClientRecordKind; made: ClientMade; content: unknown; at: Date },
  existing: (id: string) => Promise<A | undefined>,
  work: (id: string | undefined) => Promise<E.Either<L, A> | Rollback<E.Either<L, A>>>,
): Promise<E.Either<L | ClientIdConflict, Replayed<A>> | Rollback<E.Either<L | ClientIdConflict, Replayed<A>>>> => {
  type Out = E.Either<L | ClientIdConflict, Replayed<A>> | Rollback<E.Either<L | ClientIdConflict, Replayed<A>>>;
  const id = claim.made.id;
  if (id === undefined) return (await work(undefined)) as Out;
  const claimed = await claimClientId(deps, r, claim.businessId, claim.kind, claim.made, claim.content, claim.at);
  if (claimed === 'different') return E.left({ _tag: 'ClientIdConflict', id });
  if (claimed === 'same') {
    const record = await existing(id);
    if (!record) throw new Error(`client id ${id} is claimed but its ${claim.kind} record is missing`);
    return E.right({ ...record, replayed: true as const });
  }
  const out = await work(id);
  return (out instanceof Rollback || E.isRight(out) ? out : rollback(out)) as Out;
};
