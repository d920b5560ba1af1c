import type { AuditFilter, AuditRepositories, AuditSort } from '../../../application/audit/ports.js';
import type { AuditAction, AuditActorType, AuditEntry, AuditSubjectType } from '../../../domain/audit.js';
import type { Role } from '../../../domain/roles.js';
import { asDate, keysetPage, type KeysetSource, type SqlCondition } from './keyset.sql.js';
import type { Row, Sql } from './sql-session.js';
import { carriesReceiptPlaceholder, withReceiptNumber } from './numbered-at-commit.js';

const COLUMNS =
  'id, business_id, at, action, actor_type, actor_user_id, actor_name, actor_role, actor_device_id, actor_api_key_id, ' +
  'subject_type, subject_id, subject_label, branch_id, before_json, after_json, request_id';

const ENTRIES: KeysetSource<AuditSort> = {
  select: COLUMNS,
  from: 'audit_log',
  tenantColumn: 'business_id',
  idColumn: 'id',
  sort: { at: { column: 'at', type: 'timestamptz' } },
  search: ["coalesce(actor_name, '')", "coalesce(subject_label, '')"],
  dateColumn: 'at',
};

const text = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
const json = (v: unknown) => (v === null || v === undefined ? null : (JSON.parse(String(v)) as Record<string, unknown>));

const entryFromRow = (r: Row): AuditEntry => ({
  id: String(r.id),
  businessId: String(r.business_id),
  at: asDate(r.at),
  action: r.action as AuditAction,
  actor: {
    type: r.actor_type as AuditActorType,
    userId: text(r.actor_user_id),
    name: text(r.actor_name),
    role: text(r.actor_role) as Role | null,
    deviceId: text(r.actor_device_id),
    apiKeyId: text(r.actor_api_key_id),
  },
  subject: { type: r.subject_type as AuditSubjectType, id: String(r.subject_id), label: text(r.subject_label) },
  branchId: text(r.branch_id),
  before: json(r.before_json),
  after: json(r.after_json),
  requestId: text(r.request_id),
});

const conditions = (f: AuditFilter): SqlCondition[] => [
  ...(f.action ? [{ sql: 'action = ?', params: [f.action] }] : []),
  ...(f.actorId ? [{ sql: 'coalesce(actor_user_id, actor_api_key_id) = ?::uuid', params: [f.actorId] }] : []),
  ...(f.branchId ? [{ sql: 'branch_id = ?::uuid', params: [f.branchId] }] : []),
  ...(f.subjectType ? [{ sql: 'subject_type = ?', params: [f.subjectType] }] : []),
  ...(f.subjectId ? [{ sql: 'subject_id = ?', params: [f.subjectId] }] : []),
];

/**
 * The audit log as plain rows: appended in one statement however many entries (a partner's key tells every
 * business of its network), never updated or deleted (the table's trigger refuses both, docs/adr/0070).
 */
export const sqlAuditModule = (db: Sql): AuditRepositories => ({
  auditLog: {
    async append(entries) {
      if (entries.length === 0) return;
      // one JSON parameter, not 17 a row: PostgreSQL binds at most 65535 parameters a statement
      const rows = entries.map((e) => ({
        id: e.id, business_id: e.businessId, at: e.at.toISOString(), action: e.action,
        actor_type: e.actor.type, actor_user_id: e.actor.userId, actor_name: e.actor.name, actor_role: e.actor.role, actor_device_id: e.actor.deviceId, actor_api_key_id: e.actor.apiKeyId,
        subject_type: e.subject.type, subject_id: e.subject.id, subject_label: e.subject.label, branch_id: e.branchId,
        before_json: e.before === null ? null : JSON.stringify(e.before), after_json: e.after === null ? null : JSON.stringify(e.after), request_id: e.requestId,
      }));
      const json = JSON.stringify(rows);
      const insert = (parameter: string) =>
        `insert into audit_log (${COLUMNS}) select ${COLUMNS} from jsonb_to_recordset(${parameter}::jsonb) as x(
           id uuid, business_id uuid, at timestamptz, action text, actor_type text, actor_user_id uuid, actor_name text, actor_role text, actor_device_id text, actor_api_key_id uuid,
           subject_type text, subject_id text, subject_label text, branch_id uuid, before_json text, after_json text, request_id text)`;
      // an entry about a sale numbered with the COMMIT (sales.sql.ts) goes in that write, with the number
      if (carriesReceiptPlaceholder(json)) await db.beforeCommit(() => ({ sql: insert(withReceiptNumber('?')), params: [json] }));
      else await db.execute(insert('?'), [json]);
    },
    list: (businessId, page, filter) => keysetPage(db, ENTRIES, businessId, page, conditions(filter), entryFromRow),
  },
});
