import type { AuditAction, AuditEntry, AuditSubjectType } from '../../domain/audit.js';
import type { Role } from '../../domain/roles.js';
import type { Page, PageRequest } from '../ports/list.js';

// The audit module's ports (issue 36, docs/adr/0069): the log itself, and who is behind the work under way.

export const AUDIT_SORTS = ['at'] as const;
export type AuditSort = (typeof AUDIT_SORTS)[number];

/** Which entries a list or an export reads (start_date/end_date bound `at`, through the page request). */
export interface AuditFilter {
  readonly action?: AuditAction;
  /** The member (user id) or the partner's key (its id) who acted. */
  readonly actorId?: string;
  readonly branchId?: string;
  readonly subjectType?: AuditSubjectType;
  readonly subjectId?: string;
}

/**
 * The audit log of each business: entries are appended in the transaction of the change they record,
 * read by the owner, and never changed or deleted (the SQL table refuses UPDATE and DELETE outright).
 */
export interface AuditLog {
  append(entries: readonly AuditEntry[]): Promise<void>;
  /** A keyset page, newest first unless asked otherwise; `search` matches the actor's name and the subject's label. */
  list(businessId: string, page: PageRequest<AuditSort>, filter: AuditFilter): Promise<Page<AuditEntry>>;
}

/** The audit module's repositories, as a unit of work hands them out. */
export interface AuditRepositories {
  readonly auditLog: AuditLog;
}

/**
 * Who is behind the work under way, as the edge that took the request knows it: the request's id and
 * its credential (a member's token, a partner's key) and, for an offline till's operation, its device.
 * Nothing at all for the system's own work (a job, a provider's callback has only its request id).
 */
export interface Attribution {
  readonly requestId: string | null;
  readonly member?: { readonly userId: string; readonly role: Role };
  readonly partner?: { readonly partnerId: string; readonly keyId: string };
  /** The till whose queued operation POST /sync/batch is applying. */
  readonly deviceId?: string;
}
