import type { Page, PageRequest, SortValue } from '../../../application/ports/list.js';

export interface InMemoryKeyset<T, S extends string> {
  readonly sortValue: (row: T, sortBy: S) => SortValue;
  readonly id: (row: T) => string;
  readonly searchText: (row: T) => (string | null)[];
  readonly date: (row: T) => Date;
}

const compare = (a: SortValue, b: SortValue): number => (a < b ? -1 : a > b ? 1 : 0);

/** The same keyset page as the SQL one, over an array (ties on the sort field broken by id). */
export const keysetPageInMemory = <T, S extends string>(rows: T[], req: PageRequest<S>, spec: InMemoryKeyset<T, S>): Page<T> => {
  const dir = req.sortDir === 'asc' ? 1 : -1;
  const needle = req.search?.toLowerCase();
  const key = (row: T) => ({ value: spec.sortValue(row, req.sortBy), id: spec.id(row) });
  const order = (a: { value: SortValue; id: string }, b: { value: SortValue; id: string }) =>
    dir * (compare(a.value, b.value) || compare(a.id, b.id));
  const matching = rows
    .filter((r) => !needle || spec.searchText(r).some((t) => t?.toLowerCase().includes(needle)))
    .filter((r) => !req.from || spec.date(r).getTime() >= req.from.getTime())
    .filter((r) => !req.to || spec.date(r).getTime() < req.to.getTime())
    .filter((r) => !req.after || order(key(r), req.after) > 0)
    .sort((a, b) => order(key(a), key(b)));
  const items = matching.slice(0, req.limit);
  const hasNext = matching.length > req.limit;
  const last = items[items.length - 1];
  return { items, hasNext, ...(hasNext && last ? { next: key(last) } : {}) };
};
