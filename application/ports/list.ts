/**
 * Keyset pagination (API-DECISIONS "Lists"): rows ordered by (sort field, id); a page starts strictly
 * after the last row of the previous one, so rows inserted or deleted between pages never make a row
 * skipped or repeated.
 */
export type SortDir = 'asc' | 'desc';

export type SortValue = string | number;

export interface PageRequest<S extends string = string> {
  readonly sortBy: S;
  readonly sortDir: SortDir;
  /** The last row of the previous page: its sort value and id. */
  readonly after?: { readonly value: SortValue; readonly id: string };
  readonly limit: number;
  /** Case-insensitive substring over the resource's text fields. */
  readonly search?: string;
  /** Inclusive bounds on the resource's date field; `to` is exclusive. */
  readonly from?: Date;
  readonly to?: Date;
}

export interface Page<T> {
  readonly items: T[];
  readonly hasNext: boolean;
  /** Where the next page starts (the last item's key), when there is one. */
  readonly next?: { readonly value: SortValue; readonly id: string };
}
