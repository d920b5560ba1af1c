import type { Role } from './roles.js';

/*
 * The audit log (issue 36, docs/adr/0069): what was done in a business, by whom, as the owner reads it.
 * Entries are made from the domain events in the transaction that records them, never by a handler,
 * and never changed or deleted afterwards.
 */

/** What an entry says was done. */
export const AUDIT_ACTIONS = [
  'sale.voided',
  'sale.returned',
  'sale.discounted',
  'product.price_changed',
  'stock.adjusted',
  'stock.transferred',
  'expense.deleted',
  'staff.invited',
  'staff.role_changed',
  'staff.deactivated',
  'business.settings_changed',
  'notifications.preferences_changed',
  'session.signed_in_new_device',
  'loan_pack.paid',
  'api_key.created',
  'invoice.sent',
  'invoice.cancelled',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * Who did it: a member through the API (USER), a member's till replaying what it did offline (DEVICE,
 * with its device id), a partner's API key (PARTNER_KEY), or the system itself (SYSTEM: a payment
 * provider's callback, a job).
 */
export const AUDIT_ACTOR_TYPES = ['USER', 'PARTNER_KEY', 'SYSTEM', 'DEVICE'] as const;
export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];

/** What an entry is about. */
export const AUDIT_SUBJECT_TYPES = ['sale', 'product', 'stock_transfer', 'expense', 'staff_member', 'business', 'session', 'loan_pack', 'api_key', 'invoice'] as const;
export type AuditSubjectType = (typeof AUDIT_SUBJECT_TYPES)[number];

/** Who did it, as they were at that moment (a later rename or role change does not rewrite history). */
export interface AuditActor {
  readonly type: AuditActorType;
  /** The member (USER, DEVICE); null for a partner key and the system. */
  readonly userId: string | null;
  /** The member's name, or the partner's for a key. */
  readonly name: string | null;
  readonly role: Role | null;
  /** The till of an offline operation (DEVICE). */
  readonly deviceId: string | null;
  /** The partner's key that made the change (PARTNER_KEY). */
  readonly apiKeyId: string | null;
}

export interface AuditSubject {
  readonly type: AuditSubjectType;
  readonly id: string;
  /** What a person reads: the receipt number, the product's or the member's name. */
  readonly label: string | null;
}

/**
 * Field values as the API names and writes them (snake_case; money already a marked naira value,
 * domain/money.ts `markedNaira`, written as a number with 2 decimals). null: the subject did not exist
 * before (a creation) or no longer does after (a deletion).
 */
export type AuditValues = Readonly<Record<string, unknown>>;

export interface AuditEntry {
  readonly id: string;
  readonly businessId: string;
  readonly at: Date;
  readonly actor: AuditActor;
  readonly action: AuditAction;
  readonly subject: AuditSubject;
  readonly branchId: string | null;
  readonly before: AuditValues | null;
  readonly after: AuditValues | null;
  /** The HTTP request that made the change (X-Request-Id); null for the system's own work. */
  readonly requestId: string | null;
}

export const SYSTEM_ACTOR: AuditActor = { type: 'SYSTEM', userId: null, name: null, role: null, deviceId: null, apiKeyId: null };

/** The actor id a filter matches: the member, or the partner's key. */
export const actorIdOf = (a: AuditActor): string | null => a.userId ?? a.apiKeyId;
