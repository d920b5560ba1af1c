import { AUDIT_ACTIONS, AUDIT_ACTOR_TYPES, AUDIT_SUBJECT_TYPES, type AuditEntry } from '../../../domain/audit.js';
import { markedNaira } from '../../../domain/money.js';
import { ROLES } from '../../../domain/roles.js';
import { dateTime, doc, jsonSchemaOf, nullableStr, shape, uuid } from '../codecs.js';
import { dateTimeJson, NAIRA_WRITTEN } from '../json-values.js';

// The JSON view of an audit entry (docs/adr/0069) and the shape the OpenAPI document gives it.

export const auditEntryJson = (e: AuditEntry) => ({
  id: e.id,
  at: dateTimeJson(e.at),
  action: e.action,
  actor: { type: e.actor.type, user_id: e.actor.userId, name: e.actor.name, role: e.actor.role, device_id: e.actor.deviceId, api_key_id: e.actor.apiKeyId },
  subject: { type: e.subject.type, id: e.subject.id, label: e.subject.label },
  branch_id: e.branchId,
  // before/after hold money as marked naira already: writeJson writes it with 2 decimals
  before: e.before,
  after: e.after,
  request_id: e.requestId,
});

const nullable = (schema: Record<string, unknown>) => ({ ...schema, type: [schema.type as string, 'null'] });

const actorShape = doc('AuditActor', {
  type: 'object',
  required: ['type', 'user_id', 'name', 'role', 'device_id', 'api_key_id'],
  properties: {
    type: { type: 'string', enum: [...AUDIT_ACTOR_TYPES], description: 'USER: a member through the API; DEVICE: a member\'s till replaying what it did offline (POST /sync/batch); PARTNER_KEY: a partner\'s API key; SYSTEM: the system itself (a payment provider\'s callback, a job)' },
    user_id: nullable({ type: 'string', format: 'uuid', description: 'the member (USER, DEVICE)' }),
    name: nullable({ type: 'string', description: "the member's name, or the partner's for a key, as it was then" }),
    role: { type: ['string', 'null'], enum: [...ROLES, null], description: "the member's role then" },
    device_id: nullable({ type: 'string', description: 'the till (DEVICE)' }),
    api_key_id: nullable({ type: 'string', format: 'uuid', description: "the partner's key (PARTNER_KEY)" }),
  },
  examples: [{ type: 'USER', user_id: '3f2b8c1d-7e40-4b7e-9a52-4f3c4d8e9a61', name: 'Bola Ade', role: 'STAFF', device_id: null, api_key_id: null }],
});

const subjectShape = doc('AuditSubject', {
  type: 'object',
  required: ['type', 'id', 'label'],
  properties: {
    type: { type: 'string', enum: [...AUDIT_SUBJECT_TYPES] },
    id: { type: 'string', description: "the subject's id (GET /sales/{id}, /products/{id}, ...)" },
    label: nullable({ type: 'string', description: 'what a person reads: the receipt number, the product\'s or the member\'s name' }),
  },
  examples: [{ type: 'sale', id: '9a61f3c4-4d8e-4b7e-8c1d-3f2b7e409a52', label: 'RCP-000123' }],
});

const values = (when: string) =>
  doc(`audit ${when} values`, {
    type: ['object', 'null'],
    additionalProperties: true,
    description:
      `The fields that changed, ${when} the change, with the API's own names and units (money: ${NAIRA_WRITTEN}); ` +
      (when === 'before' ? 'null when the subject did not exist before (an invitation, a new key, a transfer, a sign-in).' : 'null when it no longer exists (a deleted expense).'),
  });

const entryShape = shape(
  'AuditEntry',
  {
    id: uuid,
    at: dateTime,
    action: doc('audit action', { type: 'string', enum: [...AUDIT_ACTIONS] }),
    actor: actorShape,
    subject: subjectShape,
    branch_id: doc('uuid or null', { type: ['string', 'null'], format: 'uuid' }),
    before: values('before'),
    after: values('after'),
    request_id: nullableStr,
  },
  {
    at: 'when the change was made',
    branch_id: 'the branch it happened at (a sale, a stock move, an expense, a member)',
    request_id: 'the X-Request-Id of the request that made it; null for the system\'s own work',
  },
);

/** A whole entry, as the document shows one: a void by a member, its returned stock inside. */
const AUDIT_ENTRY_EXAMPLE = {
  id: '6f1c2d3e-4b5a-4c6d-8e9f-0a1b2c3d4e5f',
  at: '2026-11-21T19:42:10.125Z',
  action: 'sale.voided',
  actor: { type: 'USER', user_id: '3f2b8c1d-7e40-4b7e-9a52-4f3c4d8e9a61', name: 'Ada Obi', role: 'BUSINESS_OWNER', device_id: null, api_key_id: null },
  subject: { type: 'sale', id: '9a61f3c4-4d8e-4b7e-8c1d-3f2b7e409a52', label: 'RCP-000123' },
  branch_id: '0b7e9a52-4f3c-4d8e-9a61-2f5b8c1d7e40',
  before: { status: 'COMPLETED', total: markedNaira(1_500_000) },
  after: { status: 'VOIDED', refund_amount: markedNaira(1_500_000), reason: 'Customer changed their mind', returned_stock: [{ product_id: '7e409a52-4f3c-4d8e-9a61-2f5b8c1d3f2b', name: 'Rice 50kg', branch_id: '0b7e9a52-4f3c-4d8e-9a61-2f5b8c1d7e40', quantity: 2 }] },
  request_id: '5d0f3c2a-8b1e-4e7a-9c6d-1f2e3a4b5c6d',
};

export const auditEntryShape = doc('AuditEntry', { ...jsonSchemaOf(entryShape), examples: [AUDIT_ENTRY_EXAMPLE] });

/** The CSV export's columns, in order. */
export const AUDIT_CSV_COLUMNS = [
  'id', 'at', 'action', 'actor_type', 'actor_user_id', 'actor_name', 'actor_role', 'actor_device_id', 'actor_api_key_id',
  'subject_type', 'subject_id', 'subject_label', 'branch_id', 'before', 'after', 'request_id',
] as const;
