import type { Row, Sql } from './sql-session.js';
import { kobo, type Kobo } from '../../../domain/money.js';

// Helpers every SQL repository shares: reading plain rows, and a write that may hit a unique index.

export type { Row };

/** The Lagos day of the instant `at` (a timestamptz expression): Lagos is UTC+1 all year, no time zone database needed. */
export const lagosDaySql = (at: string): string => `((${at} at time zone 'UTC') + interval '1 hour')::date`;
/** The instant the Lagos day `day` (a date expression) starts. */
export const lagosStartSql = (day: string): string => `((${day})::timestamp - interval '1 hour') at time zone 'UTC'`;

/** A nullable bigint column as kobo. */
export const optionalKobo = (v: unknown): Kobo | null => (v === null || v === undefined ? null : kobo(Number(v)));

export const isUniqueViolation = (e: unknown): boolean =>
  (e as { code?: string }).code === '23505' || (e as { name?: string }).name === 'UniqueConstraintViolationException';

/**
 * Runs one statement inside a savepoint: 'duplicate' when it breaks a unique index (the surrounding
 * transaction stays usable), else 'done'.
 */
export const unlessDuplicate = async (db: Sql, sql: string, params: readonly unknown[]): Promise<'done' | 'duplicate'> => {
  await db.execute('savepoint unless_duplicate');
  try {
    await db.execute(sql, params as unknown[]);
  } catch (e) {
    if (!isUniqueViolation(e)) throw e;
    await db.execute('rollback to savepoint unless_duplicate');
    return 'duplicate';
  }
  await db.execute('release savepoint unless_duplicate');
  return 'done';
};

/** Inserts one row: `columns` as the adapter lists them (`'id, name, …'`), `values` in that order. */
export const insertRow = async (db: Sql, table: string, columns: string, values: readonly unknown[]): Promise<void> => {
  await db.execute(`insert into ${table} (${columns}) values (${values.map(() => '?').join(', ')})`, values as unknown[]);
};

/** The first row `sql` answers, mapped; undefined when none. */
export const firstRow = async <T>(db: Sql, sql: string, params: readonly unknown[], map: (row: Row) => T): Promise<T | undefined> => {
  const rows = await db.execute<Row[]>(sql, params as unknown[]);
  return rows[0] ? map(rows[0]) : undefined;
};
