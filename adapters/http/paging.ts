import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';
import * as t from 'io-ts';
import type { Page, PageRequest, SortDir, SortValue } from '../../application/ports/list.js';
import { lagosDayEnd, lagosDayStart } from '../../domain/lagos-time.js';
import { Documented, enumOf, object, text } from './codecs.js';
import { INSTANT_MAX_LENGTH, instantPattern, isCalendarDay, parseInstant } from './dates.js';
import { problem } from './problem.js';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

const limitParam = new Documented<number>(
  'limit',
  { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT, description: 'items per page' },
  (u, c) => {
    const n = typeof u === 'string' && /^\d{1,4}$/.test(u) ? Number(u) : NaN;
    return n >= 1 && n <= MAX_LIMIT ? t.success(n) : t.failure(u, c, `must be an integer from 1 to ${MAX_LIMIT}`);
  },
);

/** A Lagos calendar day (YYYY-MM-DD) or an ISO 8601 date-time with a zone. */
export interface DateBound {
  readonly date?: string;
  readonly instant?: Date;
}
export const dateParam = (description: string) =>
  new Documented<DateBound>(
    'date or date-time',
    {
      type: 'string',
      maxLength: INSTANT_MAX_LENGTH,
      pattern: `^\\d{4}-\\d{2}-\\d{2}$|${instantPattern()}`,
      description: `${description}; a real calendar date; a date-time's digits past the millisecond are cut off`,
      examples: ['2026-11-21', '2026-11-21T09:30:00Z'],
    },
    (u, c) => {
      if (typeof u !== 'string') return t.failure(u, c, 'must be a date (YYYY-MM-DD) or an ISO 8601 date-time');
      // years 0001-9999 only: PostgreSQL has no year 0, and a day's Lagos bounds must stay in range
      if (/^0000/.test(u)) return t.failure(u, c, 'must be in the years 0001 to 9999');
      if (isCalendarDay(u)) return t.success({ date: u });
      const instant = parseInstant(u);
      if (instant) return t.success({ instant });
      return t.failure(u, c, 'must be a real calendar date (YYYY-MM-DD, a Lagos day) or an ISO 8601 date-time with a zone');
    },
  );

// The instants PostgreSQL and ISO 8601 both hold: the Lagos day 0001-01-01 begins in UTC year 0.
const FIRST_INSTANT = Date.parse('0001-01-01T00:00:00.000Z');
const LAST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');
const inRange = (d: Date) => new Date(Math.min(LAST_INSTANT, Math.max(FIRST_INSTANT, d.getTime())));

/**
 * The query codec of a list endpoint: the shared parameters of spec 4.4 plus the resource's filters.
 * Unknown parameters are refused like unknown body fields.
 */
export const listQuery = <S extends string, F extends t.Props>(name: string, sorts: readonly S[], filters: F, defaultSort: S = 'created_at' as S) =>
  object(
    name,
    {},
    {
      cursor: text(1, 1024, 'opaque cursor from the previous page; omit for the first page'),
      limit: limitParam,
      sort_by: enumOf<S>('sort_by', sorts, `default ${defaultSort}`),
      sort_dir: enumOf<SortDir>('sort_dir', ['asc', 'desc'], 'default desc'),
      start_date: dateParam('from this Lagos day or instant, inclusive'),
      end_date: dateParam('to this Lagos day or instant, inclusive'),
      search: text(1, 100, 'case-insensitive substring'),
      ...filters,
    },
  );

type ListQueryValue = {
  cursor?: string;
  limit?: number;
  sort_by?: string;
  sort_dir?: SortDir;
  start_date?: DateBound;
  end_date?: DateBound;
  search?: string;
};

interface CursorPayload {
  /** Fingerprint of the query the cursor belongs to (sort, direction, filters, search, dates). */
  readonly q: string;
  readonly v: SortValue;
  readonly i: string;
}

/**
 * The one list helper of the HTTP edge: decodes the page request (cursor checked and bound to its
 * query) and renders the page object `{content, cursor, has_next, limit}`.
 */
export const createPaging = (secret: Uint8Array) => {
  // A KeyObject made once: an HMAC keyed with raw bytes imports them again on every call.
  const key = createSecretKey(createHmac('sha256', secret).update('list-cursor').digest());
  const sign = (payload: string) => createHmac('sha256', key).update(payload).digest().subarray(0, 16);
  // Most pages are of a few queries (a list's first page, its usual filters): their fingerprints are
  // remembered, so a page signs one HMAC (its cursor), not two. Bounded: searches are user text.
  const fingerprints = new Map<string, string>();
  const fingerprint = (list: string, query: Record<string, unknown>, sortBy: string, sortDir: SortDir) => {
    // bound to the list and the effective sort and direction, so naming the default or leaving it out
    // is the same query, and a cursor of one list is refused by another
    const { cursor: _c, limit: _l, sort_by: _s, sort_dir: _d, ...rest } = query;
    const bound = JSON.stringify([list, sortBy, sortDir, Object.entries(rest).sort(([a], [b]) => a.localeCompare(b))]);
    let tag = fingerprints.get(bound);
    if (tag === undefined) {
      tag = createHmac('sha256', key).update(bound).digest('base64url').slice(0, 16);
      if (fingerprints.size >= 1000) fingerprints.clear();
      fingerprints.set(bound, tag);
    }
    return tag;
  };
  const badCursor = (message: string) =>
    problem('VALIDATION_FAILED', `The cursor ${message}; start again without a cursor.`, { errors: [{ field: 'cursor', message }] });

  return {
    /** `list` names the endpoint (its operationId): a cursor works only on the list that made it. */
    request<S extends string>(list: string, query: ListQueryValue, defaultSort: S): PageRequest<S> {
      const sortBy = (query.sort_by ?? defaultSort) as S;
      const sortDir = query.sort_dir ?? 'desc';
      const from = query.start_date && inRange(query.start_date.date ? lagosDayStart(query.start_date.date) : query.start_date.instant!);
      const to =
        query.end_date && inRange(query.end_date.date ? lagosDayEnd(query.end_date.date) : new Date(query.end_date.instant!.getTime() + 1));
      if (from && to && from.getTime() >= to.getTime()) {
        throw problem('VALIDATION_FAILED', 'start_date must not be after end_date.', { errors: [{ field: 'start_date', message: 'is after end_date' }] });
      }
      let after: PageRequest<S>['after'];
      if (query.cursor) {
        const parts = query.cursor.split('.');
        const [body, tag] = parts;
        if (parts.length !== 2 || !body || !tag) throw badCursor('is malformed');
        // Compare the tag as text: base64url decoding ignores the last character's unused bits (and
        // stray characters), so comparing decoded bytes would accept altered cursors.
        const expected = Buffer.from(sign(body).toString('base64url'));
        const given = Buffer.from(tag);
        if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw badCursor('is invalid or was altered');
        const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as CursorPayload;
        if (payload.q !== fingerprint(list, query, sortBy, sortDir)) throw badCursor('belongs to another list, sort, filter or search');
        after = { value: payload.v, id: payload.i };
      }
      return {
        sortBy,
        sortDir,
        limit: query.limit ?? DEFAULT_LIMIT,
        ...(after ? { after } : {}),
        ...(query.search ? { search: query.search } : {}),
        ...(from ? { from } : {}),
        ...(to ? { to } : {}),
      };
    },

    render<T>(list: string, query: ListQueryValue, req: PageRequest, page: Page<T>, item: (row: T) => unknown) {
      let cursor: string | null = null;
      if (page.hasNext && page.next) {
        const body = Buffer.from(
          JSON.stringify({ q: fingerprint(list, query, req.sortBy, req.sortDir), v: page.next.value, i: page.next.id } satisfies CursorPayload),
        ).toString('base64url');
        cursor = `${body}.${sign(body).toString('base64url')}`;
      }
      return { content: page.items.map(item), cursor, has_next: page.hasNext, limit: req.limit };
    },
  };
};

export type Paging = ReturnType<typeof createPaging>;

/** The page object's schema for the OpenAPI document. */
export const pageSchema = (item: Record<string, unknown>) => ({
  type: 'object',
  required: ['content', 'cursor', 'has_next', 'limit'],
  properties: {
    content: { type: 'array', items: item },
    cursor: { type: ['string', 'null'], description: 'pass back as `cursor` for the next page; null on the last page' },
    has_next: { type: 'boolean' },
    limit: { type: 'integer' },
  },
});
