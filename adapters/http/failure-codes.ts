import type * as E from 'fp-ts/lib/Either.js';
import type { Subject } from './subject.js';
import type { ErrorCode, ErrorCodeTable, Problem } from './problem.js';

/** What every use-case failure is: a tagged value. */
export interface Tagged {
  readonly _tag: string;
}

/**
 * How one failure is answered: the error codes it can be answered with, and its Problem Details,
 * which the compiler lets answer only one of those codes (docs/adr/0062). test/http/failures.test.ts
 * runs every tag's examples and requires every listed code to be answered.
 */
export interface FailureDef<F, C extends ErrorCode = ErrorCode> {
  readonly codes: readonly C[];
  readonly problem: (f: F, subject: Subject) => Problem<C>;
}

/** One failure's definition: `failure(['SALE_ALREADY_VOIDED'], () => problem('SALE_ALREADY_VOIDED', …))`. */
export const failure = <const C extends ErrorCode, F = never>(codes: readonly C[], problem: (f: F, subject: Subject) => Problem<NoInfer<C>>): FailureDef<F, C> => ({ codes, problem });

/** Definitions of exactly the tags of the union `F`, each typed by its variant. */
export type FailureDefs<F extends Tagged> = { readonly [K in F['_tag']]: FailureDef<Extract<F, { _tag: K }>> };

/**
 * What a module answers its failures with (adapters/http/failures/<module>.ts): its own error codes
 * (code to HTTP status) and the definition of each failure tag it owns. Its manifest names it
 * (`failures`); bootstrap/failures.ts folds them all with the core's.
 */
export interface ModuleFailures<D extends object = object> {
  readonly errorCodes: ErrorCodeTable;
  readonly failures: D;
}

/**
 * A module's failures: `moduleFailures<ExpenseModuleFailure>()(codes, { UnknownCategory: failure(…), … })`.
 * Every tag of the union must be defined, and no other.
 */
export const moduleFailures =
  <F extends Tagged>() =>
  <const D extends FailureDefs<F>>(errorCodes: ErrorCodeTable, failures: D & { readonly [K in Exclude<keyof D, F['_tag']>]: never }): ModuleFailures<D> => ({ errorCodes, failures });

/** The failure union a set of definitions answers. */
export type FailureOfDefs<D> = { [K in keyof D]: D[K] extends FailureDef<infer F, ErrorCode> ? F : never }[keyof D];
/** The codes each tag of a set of definitions answers, by tag. */
export type CodesOfDefs<D> = { [K in keyof D]: D[K] extends FailureDef<never, infer C> ? C : never };

/** The whole API's failures (bootstrap/failures.ts folds it): each tag's problem and codes, and every error code's status. */
export interface FailureTable {
  readonly definitions: Readonly<Record<string, FailureDef<never>>>;
  readonly errorCodes: ErrorCodeTable;
}

/**
 * Folds the core's and the modules' failures into one table. A tag or an error code declared twice
 * throws (two modules cannot both own one), as does a code a definition lists but nobody declares.
 */
export const foldFailures = (parts: readonly { readonly name: string; readonly failures: ModuleFailures }[]): FailureTable => {
  const definitions: Record<string, FailureDef<never>> = {};
  const errorCodes: Record<string, number> = {};
  const owner = new Map<string, string>();
  for (const { name, failures } of parts) {
    for (const [code, status] of Object.entries(failures.errorCodes)) {
      if (code in errorCodes) throw new Error(`error code ${code} is declared by ${owner.get(`code ${code}`)} and ${name}`);
      errorCodes[code] = status;
      owner.set(`code ${code}`, name);
    }
    for (const [tag, def] of Object.entries(failures.failures as Record<string, FailureDef<never>>)) {
      if (tag in definitions) throw new Error(`failure ${tag} is defined by ${owner.get(`tag ${tag}`)} and ${name}`);
      definitions[tag] = def;
      owner.set(`tag ${tag}`, name);
    }
  }
  for (const [tag, def] of Object.entries(definitions)) {
    const unknown = def.codes.filter((c) => !(c in errorCodes));
    if (unknown.length > 0) throw new Error(`failure ${tag} answers ${unknown.join(', ')}, which no module declares`);
  }
  return { definitions, errorCodes };
};

/** The failure union of a use case: the Left of the Either it answers (or resolves to). */
export type FailureOf<U> = U extends (...args: never[]) => Promise<E.Either<infer F, unknown>> ? F : U extends (...args: never[]) => E.Either<infer F, unknown> ? F : never;

/**
 * Exactly the tags of a failure union, each once: a missing tag or one the union lacks does not compile.
 * `{ NotFound: true, SaleAlreadyVoided: true }` for `NotFound | SaleAlreadyVoided`.
 */
export type TagSet<F extends Tagged> = { readonly [K in F['_tag']]: true };

/** The failures a route answers, as RouteDef.failures holds them (its tags at run time). */
export type Failures = readonly string[];

/**
 * A route's failures, checked against the failure union `F` of the use case(s) it calls
 * (`failuresOf<FailureOf<typeof uc.voidSale>>({ NotFound: true, SaleAlreadyVoided: true })`): the
 * document's error codes of the route are derived from them (openapi.ts errorCodesOf).
 */
export const failuresOf = <F extends Tagged>(tags: TagSet<F>): Failures => Object.keys(tags);

/** The codes the failures of a route can be answered with (a tag the table lacks throws: it would answer 500). */
export const codesOfFailures = (table: FailureTable, tags: Failures): ErrorCode[] =>
  [
    ...new Set(
      tags.flatMap((tag): readonly ErrorCode[] => {
        const def = table.definitions[tag];
        if (!def) throw new Error(`failure ${tag} is defined by no module`);
        return def.codes;
      }),
    ),
  ];

/** Thrown by `successOf` (failures.ts): a use case's failure, answered as its Problem where the route table is served. */
export class UseCaseFailed extends Error {
  constructor(
    readonly failure: Tagged,
    readonly subject: Subject,
  ) {
    // an answer, not a fault: no stack (as Problem)
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(failure._tag);
    Error.stackTraceLimit = limit;
  }
}

/** The Problem Details of a failure of a route acting on `subject`. */
export const failureProblem = (table: FailureTable, f: Tagged, subject: Subject): Problem => {
  const def = table.definitions[f._tag];
  if (!def) throw new Error(`failure ${f._tag} is defined by no module`);
  return def.problem(f as never, subject);
};
