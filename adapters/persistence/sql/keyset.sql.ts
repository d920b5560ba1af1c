import type { Sql } from './sql-session.js';
import type { Page, PageRequest, SortValue } from '../../../application/ports/list.js';

/** How one list reads its rows: the tables, the tenant column, sortable columns, searchable columns. */
export interface KeysetSource<S extends string> {
  readonly select: string;
  readonly from: string;
  readonly tenantColumn: string;
  readonly idColumn: string;
  readonly sort: Record<S, { readonly column: string; readonly type: 'text' | 'timestamptz' | 'bigint' | 'numeric' | 'date' }>;
  readonly search: readonly string[];
  readonly dateColumn: string;
}

export interface SqlCondition {
  readonly sql: string;
  readonly params: readonly unknown[];
}

/** Raw rows carry timestamps as PostgreSQL text (the ORM installs string type parsers). */
export const asDate = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));
export const asOptionalDate = (v: unknown): Date | null => (v === null || v === undefined ? null : asDate(v));

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * One keyset page in SQL: `WHERE tenant = ? AND ... AND (sort, id) > (?, ?) ORDER BY sort, id LIMIT n+1`.
 * The tenant condition is always there: no list can read another business's rows. Timestamps are
 * written with millisecond precision, so the cursor's ISO value compares exactly.
 */
export const keysetPage = async <S extends string, Row>(
  db: Sql,
  source: KeysetSource<S>,
  businessId: string,
  req: PageRequest<S>,
  conditions: readonly SqlCondition[],
  map: (row: Record<string, unknown>) => Row,
  /** Parameters of placeholders inside `source.from` (a subquery), bound before the rest. */
  fromParams: readonly unknown[] = [],
): Promise<Page<Row>> => {
  const sort = source.sort[req.sortBy];
  const where: string[] = [`${source.tenantColumn} = ?`];
  const params: unknown[] = [...fromParams, businessId];
  for (const c of conditions) {
    where.push(c.sql);
    params.push(...c.params);
  }
  if (req.search) {
    where.push(`(${source.search.map((col) => `${col} ilike ? escape '\\'`).join(' or ')})`);
    params.push(...source.search.map(() => `%${escapeLike(req.search!)}%`));
  }
  if (req.from) {
    where.push(`${source.dateColumn} >= ?`);
    params.push(req.from);
  }
  if (req.to) {
    where.push(`${source.dateColumn} < ?`);
    params.push(req.to);
  }
  if (req.after) {
    where.push(`(${sort.column}, ${source.idColumn}) ${req.sortDir === 'asc' ? '>' : '<'} (?::${sort.type}, ?::uuid)`);
    params.push(req.after.value, req.after.id);
  }
  const dir = req.sortDir === 'asc' ? 'asc' : 'desc';
  const sql =
    `select ${source.select}, ${sort.column} as "__sort", ${source.idColumn} as "__id" from ${source.from} ` +
    `where ${where.join(' and ')} order by ${sort.column} ${dir}, ${source.idColumn} ${dir} limit ?`;
  params.push(req.limit + 1);
  // A search pattern or a date range is planned for its values (Sql.execute); a plain page is prepared.
  const rows = await db.execute<Record<string, unknown>[]>(sql, params, 'all', Boolean(req.search || req.from || req.to));
  const hasNext = rows.length > req.limit;
  const pageRows = rows.slice(0, req.limit);
  const last = pageRows[pageRows.length - 1];
  const sortValue = (v: unknown): SortValue =>
    sort.type === 'timestamptz' ? asDate(v).toISOString() : sort.type === 'date' && v instanceof Date ? v.toISOString().slice(0, 10) : String(v);
  return {
    items: pageRows.map(map),
    hasNext,
    ...(hasNext && last ? { next: { value: sortValue(last.__sort), id: String(last.__id) } } : {}),
  };
};
