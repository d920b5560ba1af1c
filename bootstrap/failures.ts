import { foldFailures, type CodesOfDefs, type FailureOf, type FailureOfDefs, type FailureTable, type Tagged } from '../adapters/http/failure-codes.js';
import { CORE_FAILURES } from '../adapters/http/failures.js';
import { MODULES } from './modules/index.js';
import type { AnyModule, ModuleManifest } from './modules/module.js';

/**
 * The API's failures: the core's (shared: not found, validation, amounts, branches, plan limits) and
 * each module's from its manifest, folded into one table: every failure tag's problem and codes, and
 * ERROR_CODES, every code's HTTP status (docs/adr/0062). compose hands it to the route table and the
 * document; a tag or a code two modules declare throws here.
 */
export const failureTable = (modules: readonly AnyModule[]): FailureTable =>
  foldFailures([{ name: 'core', failures: CORE_FAILURES }, ...modules.flatMap((m) => m.failures.map((failures) => ({ name: m.name, failures })))]);

export const FAILURES: FailureTable = failureTable(MODULES);
/** Every error code the API answers with, and its HTTP status (API-DECISIONS "Errors"). */
export const ERROR_CODES = FAILURES.errorCodes;

type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
/** Every definition, by tag, as the types of the core's and the manifests' failures say. */
type Definitions = typeof CORE_FAILURES.failures & Intersection<(typeof MODULES)[number]['failures'][number]['failures']>;

/** Every failure a use case answers with. */
export type UseCaseFailure = FailureOfDefs<Definitions>;
export type FailureTag = UseCaseFailure['_tag'];
/** The error codes a failure union can be answered with. */
export type CodesOf<F extends Tagged> = CodesOfDefs<Definitions>[F['_tag'] & keyof Definitions];

/** The failures the use cases of a manifest can answer (a use case is a function answering an Either). */
type UseCaseFailures<M> = M extends ModuleManifest<infer U, any, any> ? { [K in keyof U]: FailureOf<U[K]> }[keyof U] : never; // eslint-disable-line @typescript-eslint/no-explicit-any
/** Tags some module's use case answers and no module defines: each would be answered 500. */
type Undefined = Exclude<UseCaseFailures<(typeof MODULES)[number]>['_tag'], FailureTag>;
const everyFailureDefined: [Undefined] extends [never] ? true : `no module's failures define ${Undefined}` = true;
void everyFailureDefined;
