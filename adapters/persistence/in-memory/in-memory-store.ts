import { AsyncLocalStorage } from 'node:async_hooks';
import { Rollback, type UnitOfWork } from '../../../application/ports/unit-of-work.js';
import { copy } from './rows.js';

/**
 * One module's repositories in memory: the tables it owns, and its repositories over the store's
 * tables (its own, and those of other modules it reads, as its SQL joins them). Tables are plain
 * Maps and arrays, so a snapshot is a structured clone.
 */
export interface InMemoryModule<Own extends object, R extends object, Reads extends object = {}> {
  readonly tables: () => Own;
  readonly repositories: (tables: Own & Reads) => R;
}

type Tables = Record<string, unknown>;

/** The open `atomically` scope: its working tables, and what to undo outside the tables if it fails. */
interface AtomicScope {
  tables: Tables;
  readonly undo: (() => void)[];
}
const atomicScope = new AsyncLocalStorage<AtomicScope>();

/** Registers how to undo a change kept outside the tables (the idempotency store) if the open `atomically` fails. */
export const undoOnInMemoryRollback = (undo: () => void): void => void atomicScope.getStore()?.undo.push(undo);

/**
 * The modules' repositories in memory, for unit tests and embedders. Transactions run one at a time
 * (like PGlite) and a throw or a Rollback restores the snapshot taken when the work began.
 */
export const inMemoryStore = <R>(modules: readonly InMemoryModule<any, any, any>[]): UnitOfWork<R> => {
  const emptyTables = (): Tables => Object.assign({}, ...modules.map((m) => m.tables()));
  const repositories = (t: Tables): R => Object.assign({}, ...modules.map((m) => m.repositories(t)));
  let committed = emptyTables();
  let queue: Promise<unknown> = Promise.resolve();
  const serialised = async <A>(work: () => Promise<A>): Promise<A> => {
    const previous = queue;
    let release!: () => void;
    queue = new Promise<void>((r) => (release = r));
    await previous;
    try {
      return await work();
    } finally {
      release();
    }
  };
  /** Runs work on a copy of `base`; the copy replaces it (through `keep`) unless the work throws or rolls back. */
  const onCopy = async <A>(base: Tables, keep: (t: Tables) => void, work: (repos: R) => Promise<A | Rollback<A>>): Promise<A> => {
    const working = copy(base);
    const result = await work(repositories(working));
    if (result instanceof Rollback) return result.value;
    keep(working);
    return result;
  };
  const run = <A>(work: (repos: R) => Promise<A | Rollback<A>>): Promise<A> => {
    const scope = atomicScope.getStore();
    if (scope) return onCopy(scope.tables, (t) => (scope.tables = t), work);
    return serialised(() => onCopy(committed, (t) => (committed = t), work));
  };
  // Reads see committed rows (or the open scope's) and wait for nothing, like reads outside a transaction.
  const read = <A>(work: (repos: R) => Promise<A>): Promise<A> => work(repositories(atomicScope.getStore()?.tables ?? committed));
  const atomically = <A>(work: () => Promise<A>): Promise<A> => {
    if (atomicScope.getStore()) return work();
    return serialised(async () => {
      const scope: AtomicScope = { tables: copy(committed), undo: [] };
      try {
        const result = await atomicScope.run(scope, work);
        committed = scope.tables;
        return result;
      } catch (e) {
        for (const undo of scope.undo.reverse()) undo();
        throw e;
      }
    });
  };
  // Its units of work are serialised, one at a time: a turn of the event loop lets waiting requests queue first.
  const giveWay = () => new Promise<boolean>((resolve) => setImmediate(() => resolve(true)));
  return { run, read, readInTurn: read, atomically, giveWay };
};
