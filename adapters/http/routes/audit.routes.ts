import { pipeline, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { exportAuditLog, listAuditLog } from '../../../application/audit/read-audit-log.js';
import { AUDIT_SORTS, type AuditFilter } from '../../../application/audit/ports.js';
import { AUDIT_ACTIONS, AUDIT_SUBJECT_TYPES, type AuditEntry } from '../../../domain/audit.js';
import { coalesce } from '../../csv/coalesce.js';
import { guardCell } from '../../csv/cells.js';
import { doc, enumOf, jsonSchemaOf, object, text, uuidInput } from '../codecs.js';
import { dateTimeJson, writeJson } from '../json-values.js';
import { dateParam, listQuery, pageSchema, type Paging } from '../paging.js';
import { ok, OWNER_ONLY, route } from '../route.js';
import { AUDIT_CSV_COLUMNS, auditEntryJson, auditEntryShape } from './audit.views.js';

export interface AuditUseCases {
  readonly listAuditLog: ReturnType<typeof listAuditLog>;
  readonly exportAuditLog: ReturnType<typeof exportAuditLog>;
  readonly paging: Paging;
}

const TAG = 'Audit log';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The filters of the list and the export. */
const filters = {
  action: enumOf('action', AUDIT_ACTIONS),
  actor_id: uuidInput,
  branch_id: uuidInput,
  subject_type: enumOf('subject_type', AUDIT_SUBJECT_TYPES),
  subject_id: text(1, 64, "the subject's id (a sale's, a product's, ...)"),
};
type FilterQuery = { action?: AuditFilter['action']; actor_id?: string; branch_id?: string; subject_type?: AuditFilter['subjectType']; subject_id?: string };
const filterOf = (q: FilterQuery): AuditFilter => ({
  ...(q.action ? { action: q.action } : {}),
  ...(q.actor_id ? { actorId: q.actor_id } : {}),
  ...(q.branch_id ? { branchId: q.branch_id } : {}),
  ...(q.subject_type ? { subjectType: q.subject_type } : {}),
  // a UUID is matched as stored, in lower case; other ids (a loan pack's reference) as given
  ...(q.subject_id ? { subjectId: UUID.test(q.subject_id) ? q.subject_id.toLowerCase() : q.subject_id } : {}),
});

const FILTERS_DESCRIPTION =
  'Filters: action; actor_id (a member\'s user id, or a partner\'s API key id); branch_id; subject_type and subject_id (e.g. sale and a sale\'s id: ' +
  'everything done to that sale); start_date/end_date bound `at` (a Lagos day or an instant, inclusive); search: the actor\'s name and the subject\'s label.';

/** One entry as a CSV record: text cells guarded against formula injection, before/after as JSON (money in naira). */
const record = (e: AuditEntry): string[] => {
  const cell = (v: string | null) => (v === null ? '' : guardCell(v));
  return [
    e.id, dateTimeJson(e.at), e.action, e.actor.type, cell(e.actor.userId), cell(e.actor.name), cell(e.actor.role), cell(e.actor.deviceId), cell(e.actor.apiKeyId),
    e.subject.type, cell(e.subject.id), cell(e.subject.label), cell(e.branchId),
    e.before === null ? '' : guardCell(writeJson(e.before)), e.after === null ? '' : guardCell(writeJson(e.after)), cell(e.requestId),
  ];
};

/** The owner's audit log (issue 36, docs/adr/0069): read and exported, never changed: no route writes or deletes an entry. */
export const auditRoutes = (uc: AuditUseCases) => [
  route({
    method: 'get',
    path: '/audit-log',
    operationId: 'listAuditLog',
    tag: TAG,
    summary: 'The audit log (owner)',
    description:
      'What was done in the business and by whom: voids, discounts, price changes, stock adjustments and transfers, deleted expenses, staff invited, ' +
      'their roles changed or deactivated, business settings changed, sign-ins from a new device, loan packs paid, and API keys a partner made ' +
      '(the business\'s partner: it can read the business\'s data). Each entry is written in the same transaction as the change, from its domain event; ' +
      'none is ever changed or deleted. The actor is a member (USER), a member\'s till syncing what it did offline (DEVICE, with its device_id), ' +
      'a partner\'s key (PARTNER_KEY) or the system (SYSTEM). before/after hold the changed fields with the API\'s names and units. ' +
      'Paged (keyset), newest first. ' + FILTERS_DESCRIPTION,
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    query: listQuery('AuditLogListQuery', AUDIT_SORTS, filters, 'at'),
    success: { status: 200, description: 'A page of entries', data: doc('AuditEntryPage', pageSchema(jsonSchemaOf(auditEntryShape))) },
    errors: [],
    handler: async ({ actor, query }) => {
      const req = uc.paging.request('listAuditLog', query, 'at');
      return ok('Audit log', uc.paging.render('listAuditLog', query, req, await uc.listAuditLog(actor, req, filterOf(query)), auditEntryJson));
    },
  }),
  route({
    method: 'get',
    path: '/audit-log/export',
    operationId: 'exportAuditLog',
    tag: TAG,
    summary: 'Export the audit log as CSV (owner)',
    description:
      `Every entry the filters select (no paging), newest first unless sort_dir=asc, streamed from the database. Columns: ${AUDIT_CSV_COLUMNS.join(',')}; ` +
      'before and after as JSON (money in naira with 2 decimals). UTF-8 with a byte-order mark, CRLF line ends; a text cell starting with = + - @, tab or CR ' +
      "is prefixed with a single quote (OWASP's CSV-injection guard). " + FILTERS_DESCRIPTION,
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    query: object(
      'AuditLogExportQuery',
      {},
      {
        sort_dir: enumOf('sort_dir', ['asc', 'desc'] as const, 'default desc'),
        start_date: dateParam('from this Lagos day or instant, inclusive'),
        end_date: dateParam('to this Lagos day or instant, inclusive'),
        search: text(1, 100, 'case-insensitive substring of the actor\'s name or the subject\'s label'),
        ...filters,
      },
    ),
    success: {
      status: 200,
      description: 'The CSV file',
      contentType: 'text/csv; charset=utf-8',
      data: doc('AuditLogCsv', { type: 'string', description: `CSV with the header ${AUDIT_CSV_COLUMNS.join(',')}` }),
      headers: { 'Content-Disposition': 'attachment; filename="audit-log-YYYY-MM-DD.csv" (the Lagos date of the export)' },
    },
    errors: [],
    handler: async ({ actor, ctx, query }) => {
      const { limit: _limit, ...req } = uc.paging.request('exportAuditLog', query, 'at');
      const { lagosDay, entries } = uc.exportAuditLog(actor, req, filterOf(query));
      // The first batch is read before the answer starts, so a database fault is still a proper error.
      const first = await entries.next();
      const records = async function* () {
        if (first.done) return;
        yield record(first.value);
        for await (const e of entries) yield record(e);
      };
      const csv = pipeline(Readable.from(records()), stringify({ header: true, columns: [...AUDIT_CSV_COLUMNS], bom: true, record_delimiter: 'windows' }), coalesce(), (e) => {
        if (e) ctx.res.destroy(e); // cut the download off rather than end a truncated file normally
      });
      return { status: 200, message: 'Audit log CSV', data: csv, headers: { 'Content-Disposition': `attachment; filename="audit-log-${lagosDay}.csv"` } };
    },
  }),
];
