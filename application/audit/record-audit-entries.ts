import { SYSTEM_ACTOR, type AuditAction, type AuditActor, type AuditEntry, type AuditSubject, type AuditValues } from '../../domain/audit.js';
import type { AuditEntryRecorded, DomainEvent } from '../../domain/events.js';
import { markedNaira, type Kobo } from '../../domain/money.js';
import { ADJUSTMENT_REASONS } from '../../domain/product.js';
import type { Role } from '../../domain/roles.js';
import type { AuthRepositories } from '../auth/ports.js';
import type { Crypto } from '../ports/crypto.js';
import type { EventRepositories } from '../ports/outbox.js';
import type { PartnerRepositories } from '../partners/ports.js';
import type { ProductRepositories } from '../products/ports.js';
import type { Attribution, AuditRepositories } from './ports.js';

// The audit log's entries, made from the domain events a transaction records, in that transaction
// (docs/adr/0069): a change and its entry commit together or not at all, and no handler writes one.

/** What recording reads and writes, inside the change's transaction. */
export type AuditWriteRepositories = AuditRepositories &
  EventRepositories &
  Pick<AuthRepositories, 'users'> &
  Pick<ProductRepositories, 'products'> &
  Pick<PartnerRepositories, 'partners' | 'partnerNetwork'>;

/** An entry as an event gives it, before its actor and the labels that need a read are known. */
interface Draft {
  /** The business whose log it goes to; a partner's: every business in its network now. */
  readonly owner: { readonly businessId: string } | { readonly partnerId: string };
  readonly action: AuditAction;
  readonly subject: AuditSubject;
  /** The subject's label is this product's name (read in the transaction). */
  readonly labelOfProduct?: string;
  /** The subject's label is this user's name. */
  readonly labelOfUser?: string;
  readonly branchId: string | null;
  readonly before: AuditValues | null;
  readonly after: AuditValues | null;
  /** The member the event itself names as acting, for work no credential stands behind (a sign-in). */
  readonly actingMember?: { readonly userId: string; readonly role: Role };
  /** What an owner's alert weighs (docs/adr/0071). */
  readonly alert?: Omit<AuditEntryRecorded, '_tag' | 'businessId' | 'entryId' | 'actorName' | 'subjectLabel'>;
}

const naira = (k: Kobo | number) => markedNaira(k);
const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const snakeKeys = (o: Readonly<Record<string, unknown>>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [snake(k), v]));
const nameOf = (u: { firstName: string; lastName: string } | undefined) => (u ? `${u.firstName} ${u.lastName}`.trim() : null);
/** Stock moves a person makes by hand (or by a file): not a sale's, a void's or a transfer's. */
const HAND_MOVES: readonly string[] = [...ADJUSTMENT_REASONS, 'IMPORT'];

/** The entries an event makes: none for most (a sale without a discount, a stock move of a sale). */
export const draftsOf = (e: DomainEvent): Draft[] => {
  switch (e._tag) {
    case 'SaleRecorded': {
      const discounted = e.lines.filter((l) => l.discount > 0);
      if (e.discount <= 0 && discounted.length === 0) return [];
      const discounts = e.discount + discounted.reduce((n, l) => n + l.discount, 0);
      return [{
        owner: e, action: 'sale.discounted', subject: { type: 'sale', id: e.saleId, label: e.receiptNumber }, branchId: e.branchId,
        before: { total: naira(e.grossTotal) },
        after: { total: naira(e.total), discount: naira(e.discount), line_discounts: discounted.map((l) => ({ product_id: l.productId, name: l.name, quantity: l.quantity, discount: naira(l.discount) })) },
        alert: { action: 'sale.discounted', amount: discounts as Kobo, quantity: null },
      }];
    }
    case 'SaleVoided':
      return [{
        owner: e, action: 'sale.voided', subject: { type: 'sale', id: e.saleId, label: e.receiptNumber }, branchId: e.branchId,
        before: { status: 'COMPLETED', total: naira(e.total) },
        after: {
          status: 'VOIDED', refund_amount: naira(e.refundAmount), reason: e.reason,
          returned_stock: e.returned.map((r) => ({ product_id: r.productId, name: r.name, branch_id: r.branchId, quantity: r.quantity })),
        },
        alert: { action: 'sale.voided', amount: e.total, quantity: null },
      }];
    case 'ReturnRecorded':
      // one entry for the return: its restock (RETURN rows tied to the sale) makes no stock.adjusted beside it
      return [{
        owner: e, action: 'sale.returned', subject: { type: 'sale', id: e.saleId, label: e.receiptNumber }, branchId: e.branchId, before: null,
        after: {
          return_id: e.returnId, return_number: e.returnNumber, amount: naira(e.amount), debt_reduced: naira(e.debtReduced), refund_amount: naira(e.refundAmount),
          refund_method: e.refundMethod, restock: e.restock, reason: e.reason,
          lines: e.lines.map((l) => ({ product_id: l.productId, name: l.name, quantity: l.quantity, amount: naira(l.amount) })),
        },
      }];
    case 'StockChanged':
      if (e.saleId !== null || !HAND_MOVES.includes(e.reason)) return [];
      return [{
        owner: e, action: 'stock.adjusted', subject: { type: 'product', id: e.productId, label: null }, labelOfProduct: e.productId, branchId: e.branchId,
        before: { quantity: e.branchQuantityAfter - e.change },
        after: { quantity: e.branchQuantityAfter, quantity_change: e.change, reason: e.reason },
        alert: { action: 'stock.adjusted', amount: null, quantity: e.change },
      }];
    case 'ProductPriceChanged':
      return [{
        owner: e, action: 'product.price_changed', subject: { type: 'product', id: e.productId, label: e.name }, branchId: null,
        before: moneyValues(e.before), after: moneyValues(e.after),
      }];
    case 'StockTransferred':
      return [{
        owner: e, action: 'stock.transferred', subject: { type: 'stock_transfer', id: e.transferId, label: null }, branchId: e.fromBranchId, before: null,
        after: { from_branch_id: e.fromBranchId, to_branch_id: e.toBranchId, items: e.items.map((i) => ({ product_id: i.productId, quantity: i.quantity })), note: e.note },
      }];
    case 'ExpenseDeleted':
      return [{
        owner: e, action: 'expense.deleted', subject: { type: 'expense', id: e.expenseId, label: e.description }, branchId: e.branchId,
        before: { amount: naira(e.amount), description: e.description, category_name: e.categoryName, spent_on: e.spentOn }, after: null,
      }];
    case 'MemberInvited':
      return [{
        owner: e, action: 'staff.invited', subject: { type: 'staff_member', id: e.membershipId, label: null }, labelOfUser: e.userId, branchId: e.branchId ?? null, before: null,
        after: { user_id: e.userId, role: e.role, [e.identifier.kind]: e.identifier.value },
      }];
    case 'MemberRoleChanged':
      return [{
        owner: e, action: 'staff.role_changed', subject: { type: 'staff_member', id: e.membershipId, label: null }, labelOfUser: e.userId, branchId: e.branchId,
        before: { role: e.before }, after: { role: e.after },
      }];
    case 'MemberDeactivated':
      return [{
        owner: e, action: 'staff.deactivated', subject: { type: 'staff_member', id: e.membershipId, label: null }, labelOfUser: e.userId, branchId: e.branchId,
        before: { status: e.previousStatus }, after: { status: 'DEACTIVATED' },
      }];
    case 'BusinessSettingsChanged':
      return [{
        owner: e, action: 'business.settings_changed', subject: { type: 'business', id: e.businessId, label: e.businessName }, branchId: null,
        before: snakeKeys(e.before), after: snakeKeys(e.after),
      }];
    case 'NotificationPreferencesChanged':
      return [{
        owner: e, action: 'notifications.preferences_changed', subject: { type: 'business', id: e.businessId, label: 'Notification preferences' }, branchId: null,
        before: preferenceValues(e.before), after: preferenceValues(e.after),
      }];
    case 'SignedInFromNewDevice':
      return [{
        owner: e, action: 'session.signed_in_new_device', subject: { type: 'session', id: e.sessionId, label: e.userAgent.slice(0, 200) }, branchId: null, before: null,
        after: { user_agent: e.userAgent, ip: e.ip }, actingMember: { userId: e.userId, role: e.role },
      }];
    case 'LoanPackPaid':
      return [{
        owner: e, action: 'loan_pack.paid', subject: { type: 'loan_pack', id: e.reference, label: e.reference }, branchId: null,
        before: { status: 'PENDING_PAYMENT' }, after: { status: 'READY', amount_paid: naira(e.amount), paid_at: e.paidAt },
      }];
    case 'ApiKeyCreated':
      return [{
        owner: { partnerId: e.partnerId }, action: 'api_key.created', subject: { type: 'api_key', id: e.keyId, label: `${e.name} (${e.prefix}…)` }, branchId: null,
        before: null, after: { partner_id: e.partnerId, name: e.name, prefix: e.prefix, scopes: e.scopes, expires_at: e.keyExpiresAt, rotated_from: e.rotatedFrom },
      }];
    case 'InvoiceSent':
      return [{
        owner: e, action: 'invoice.sent', subject: { type: 'invoice', id: e.invoiceId, label: e.number }, branchId: e.branchId,
        before: { status: 'DRAFT' },
        after: { status: 'SENT', number: e.number, type: e.type, customer_id: e.customerId, issue_date: e.issueDate, due_date: e.dueDate, total: naira(e.total), vat_total: naira(e.vatTotal) },
      }];
    case 'InvoiceCancelled':
      return [{
        owner: e, action: 'invoice.cancelled', subject: { type: 'invoice', id: e.invoiceId, label: e.number }, branchId: e.branchId,
        before: { status: 'SENT', total: naira(e.total) }, after: { status: 'CANCELLED' },
      }];
    default:
      return [];
  }
};

/** The alert thresholds that are money (kobo inside, naira in the entry). */
const PREFERENCE_MONEY: readonly string[] = ['saleVoidedOver', 'saleDiscountedOver'];
/** Notification preference sections as the API names and writes them: snake_case, money in naira. */
const preferenceValues = (v: Readonly<Record<string, unknown>>): AuditValues =>
  Object.fromEntries(
    Object.entries(v).map(([section, fields]) => [
      snake(section),
      typeof fields === 'object' && fields !== null
        ? Object.fromEntries(Object.entries(fields).map(([k, x]) => [snake(k), PREFERENCE_MONEY.includes(k) && typeof x === 'number' ? naira(x) : x]))
        : fields,
    ]),
  );

/** Prices as the API names and writes them. */
const moneyValues = (v: { readonly price?: Kobo; readonly costPrice?: Kobo | null }): AuditValues => ({
  ...(v.price !== undefined ? { price: naira(v.price) } : {}),
  ...(v.costPrice !== undefined ? { cost_price: v.costPrice === null ? null : naira(v.costPrice) } : {}),
});

/**
 * Who acted: the partner's key, the member (through their till when offline), the member an event
 * names (a sign-in), else the system. Names are read now: the entry keeps them as they were.
 */
const actorOf = async (r: AuditWriteRepositories, a: Attribution | undefined, draft: Draft): Promise<AuditActor> => {
  if (a?.partner) {
    const partner = await r.partners.findById(a.partner.partnerId);
    return { type: 'PARTNER_KEY', userId: null, name: partner?.name ?? null, role: null, deviceId: null, apiKeyId: a.partner.keyId };
  }
  const member = a?.member ?? draft.actingMember;
  if (!member) return SYSTEM_ACTOR;
  const name = nameOf(await r.users.findById(member.userId));
  const deviceId = a?.member ? (a.deviceId ?? null) : null;
  return { type: deviceId ? 'DEVICE' : 'USER', userId: member.userId, name, role: member.role, deviceId, apiKeyId: null };
};

/**
 * Appends the audit entries of `events` in the transaction recording them, and an AuditEntryRecorded
 * for each an owner's alert may be about. Answers how many entries were written. Events that make no
 * entry cost nothing: no read, no write (a plain sale's hot path).
 */
export const recordAuditEntries =
  (deps: { readonly crypto: Pick<Crypto, 'uuid'> }) =>
  async (r: AuditWriteRepositories, at: Date, events: readonly DomainEvent[], attribution: Attribution | undefined): Promise<number> => {
    const drafts = events.flatMap(draftsOf);
    if (drafts.length === 0) return 0;
    const entries: AuditEntry[] = [];
    const alerts: AuditEntryRecorded[] = [];
    for (const draft of drafts) {
      const actor = await actorOf(r, attribution, draft);
      const label =
        draft.labelOfProduct !== undefined && 'businessId' in draft.owner
          ? ((await r.products.findById(draft.owner.businessId, draft.labelOfProduct))?.name ?? null)
          : draft.labelOfUser !== undefined
            ? nameOf(await r.users.findById(draft.labelOfUser))
            : draft.subject.label;
      const businessIds = 'businessId' in draft.owner ? [draft.owner.businessId] : await r.partnerNetwork.merchantIds(draft.owner.partnerId);
      for (const businessId of businessIds) {
        const entry: AuditEntry = {
          id: deps.crypto.uuid(),
          businessId,
          at,
          actor,
          action: draft.action,
          subject: { ...draft.subject, label },
          branchId: draft.branchId,
          before: draft.before,
          after: draft.after,
          requestId: attribution?.requestId ?? null,
        };
        entries.push(entry);
        if (draft.alert) alerts.push({ _tag: 'AuditEntryRecorded', businessId, entryId: entry.id, actorName: actor.name, subjectLabel: label, ...draft.alert });
      }
    }
    if (entries.length === 0) return 0;
    await r.auditLog.append(entries);
    if (alerts.length > 0) await r.events.record(at, ...alerts);
    return entries.length;
  };
