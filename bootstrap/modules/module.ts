import type { ListedMigration } from '../../adapters/persistence/sql/orm.js';
import { failureProblem, UseCaseFailed, type FailureTable, type ModuleFailures } from '../../adapters/http/failure-codes.js';
import type { RouteDef } from '../../adapters/http/route.js';
import type { InMemoryModule } from '../../adapters/persistence/in-memory/in-memory-store.js';
import type { Sql } from '../../adapters/persistence/sql/sql-session.js';
import type { JobModule } from '../jobs.js';
import type { ModuleContext } from './context.js';

/** One set of a module's repositories on each adapter: the same ports, in memory and over SQL. */
export interface Repositories<R extends object> {
  readonly inMemory: InMemoryModule<any, R, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  readonly sql: (db: Sql) => R;
}

export const repositories = <R extends object>(inMemory: InMemoryModule<any, R, any>, sql: (db: Sql) => R): Repositories<R> => ({ inMemory, sql }); // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * One module as the composition root sees it (docs/adr/0052): the application folder(s) it stands
 * for, its use cases built from the shared context, and its routes over exactly those use cases.
 * `routes` is typed by `useCases`, so a use case a route needs and the manifest forgot does not
 * compile; a manifest left out of MODULES (bootstrap/modules/index.ts) fails test/bootstrap/modules.test.ts.
 */
export interface ModuleManifest<
  U extends object,
  P extends readonly Repositories<any>[] = readonly Repositories<any>[], // eslint-disable-line @typescript-eslint/no-explicit-any
  Fs extends readonly ModuleFailures[] = readonly ModuleFailures[],
> extends JobModule {
  /** The module's name, as its manifest file is called (bootstrap/modules/<name>.ts). */
  readonly name: string;
  /** The folders under application/ whose use cases this module serves. */
  readonly folders: readonly string[];
  /**
   * Its repositories on both adapters (bootstrap/persistence.ts folds the SQL halves; the in-memory
   * halves are listed in persistence-in-memory.ts, which the embedder loads without any manifest).
   */
  readonly repositories: P;
  readonly useCases: (ctx: ModuleContext) => U;
  /** The module's routes, in the order the document lists them; `before` is every earlier module's (the sync batch runs them). */
  readonly routes: (useCases: U, before: readonly RouteDef<any, any>[]) => readonly RouteDef<any, any>[]; // eslint-disable-line @typescript-eslint/no-explicit-any
  /**
   * How its failures are answered and its own error codes (adapters/http/failures/<module>.ts,
   * docs/adr/0062): bootstrap/failures.ts folds them. A use case's failure no module defines does not compile there.
   */
  readonly failures: Fs;
  /**
   * Its migrations (adapters/persistence/sql/migrations/), each named as its file; bootstrap/migrations.ts
   * folds them in name order. test/unit/bootstrap/modules.test.ts fails on a file in no manifest or in two.
   */
  readonly migrations: readonly ListedMigration[];
  // and, from JobModule, its `subscribers` and `periodicTasks` (bootstrap/jobs.ts folds them)
}

/** A manifest, its use cases' type inferred and checked against its routes. */
export const defineModule = <U extends object, const P extends readonly Repositories<any>[], const Fs extends readonly ModuleFailures[]>(m: ModuleManifest<U, P, Fs>): ModuleManifest<U, P, Fs> => m; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A manifest of any use cases, as the list holds them. */
export type AnyModule = ModuleManifest<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * A route as it is served: a use case's failure its handler throws (`successOf`) is answered as the
 * Problem its definition gives, from the folded table.
 */
const served = (r: RouteDef<any, any>, failures: FailureTable): RouteDef<any, any> => ({ // eslint-disable-line @typescript-eslint/no-explicit-any
  ...r,
  async handler(input) {
    try {
      return await r.handler(input);
    } catch (e) {
      throw e instanceof UseCaseFailed ? failureProblem(failures, e.failure, e.subject) : e;
    }
  },
});

/** The route table: every module's routes in list order, each module given the ones before it (served: failures answered by `failures`). */
export const routeTable = (modules: readonly AnyModule[], ctx: ModuleContext, failures: FailureTable): RouteDef<any, any>[] => // eslint-disable-line @typescript-eslint/no-explicit-any
  modules.reduce<RouteDef<any, any>[]>((table, m) => [...table, ...m.routes(m.useCases(ctx), table).map((r) => served(r, failures))], []); // eslint-disable-line @typescript-eslint/no-explicit-any
