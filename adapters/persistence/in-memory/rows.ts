// Helpers every in-memory module shares: rows are copied in and out, so a caller holding one cannot
// change a table behind the unit of work's back (as with rows read from SQL).

/**
 * A row's key in a table of client-made records (sales, customers, credit entries, expenses, stock
 * movements): ids are per business, as in SQL's (id, business_id) keys (docs/adr/0039).
 */
export const rowKey = (businessId: string, id: string): string => `${businessId}/${id}`;

export const copy = <T>(value: T): T => structuredClone(value);

/** Copies of a table's rows. */
export const values = <T>(m: Map<string, T>): T[] => [...m.values()].map(copy);

/** `at`, or 1 ms after the latest of `earlier` when the clock has not passed it (ledgers read as chains). */
export const after = (earlier: Iterable<{ createdAt: Date }>, at: Date): Date => {
  let latest = at.getTime();
  for (const x of earlier) latest = Math.max(latest, x.createdAt.getTime() + 1);
  return new Date(latest);
};
