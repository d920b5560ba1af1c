import * as t from 'io-ts';
import type { ClientMade } from '../../application/sync/client-id.js';
import { Documented } from './codecs.js';
import type { Reply } from './route.js';

// The fields every record a till may create offline takes (docs/adr/0034, docs/offline-sync.md).

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?(Z|[+-]\d{2}:\d{2})$/;
// A device clock is often wrong, but not by decades: outside these years the time is a bug, not a drift.
const FIRST = Date.parse('2000-01-01T00:00:00Z');
const LAST = Date.parse('2100-01-01T00:00:00Z');

/** A UUID v4 the device generated for the record it creates. */
export const clientId = new Documented<string>(
  'client id',
  { type: 'string', format: 'uuid', description: 'a UUID v4 the device generated: the record\'s id (see docs/offline-sync.md)' },
  (u, c) => (typeof u === 'string' && UUID_V4.test(u) ? t.success(u.toLowerCase()) : t.failure(u, c, 'must be a UUID v4')),
);

/** When the device made the record, by its own clock: an ISO 8601 date-time with a zone. */
export const clientTime = new Documented<Date>(
  'client date-time',
  {
    type: 'string',
    format: 'date-time',
    maxLength: 35,
    description:
      "when the device made the record, by the device's clock. A sale's is kept within bounds, not refused (docs/adr/0039): a time " +
      "before the business was created, or (synced) before the device's previous sync, is kept as that instant; more than 5 minutes " +
      'ahead of the server, as now',
  },
  (u, c) => {
    if (typeof u !== 'string' || !ISO_INSTANT.test(u)) return t.failure(u, c, 'must be an ISO 8601 date-time with a zone');
    const ms = Date.parse(u);
    return Number.isNaN(ms) || ms < FIRST || ms >= LAST ? t.failure(u, c, 'must be a date-time in the years 2000 to 2099') : t.success(new Date(ms));
  },
);

/** The optional body fields of a create a device may make offline. */
export const CLIENT_FIELDS = { id: clientId, client_created_at: clientTime };

export const CLIENT_FIELDS_DESCRIPTION =
  ' Offline tills: `id` (a UUID v4 the device generated) and `client_created_at` make the create idempotent by the record itself: ' +
  'sending the same id with the same content again answers the record already made (201, `Idempotent-Replayed: true`), with other ' +
  'content 409 CLIENT_ID_CONFLICT. Ids are per business: an id another business used is, here, a new one.';

export const REPLAYED_HEADER = { 'Idempotent-Replayed': 'true when the record was already made under this Idempotency-Key or client id: this is it' };

/** The client id and time of a decoded body, as the use case's command takes them. */
export const clientMade = (b: { id?: string; client_created_at?: Date }): ClientMade => ({
  ...(b.id !== undefined ? { id: b.id } : {}),
  ...(b.client_created_at !== undefined ? { clientCreatedAt: b.client_created_at } : {}),
});

/** A 201 that says, in Idempotent-Replayed, whether the record was made by an earlier request. */
export const createdOnce = (message: string, data: unknown, replayed: boolean | undefined, headers: Record<string, string> = {}): Reply => ({
  status: 201,
  message,
  data,
  headers: { ...headers, ...(replayed ? { 'Idempotent-Replayed': 'true' } : {}) },
});
