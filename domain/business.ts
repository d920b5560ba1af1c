import type { Plan } from './plan.js';
import type { E164Phone } from './phone.js';
import type { Role } from './roles.js';
import type { Identifier } from './identifier.js';
import type { VatRate } from './vat.js';
import type { InvoiceSettings } from './invoice.js';

export const DEFAULT_TIMEZONE = 'Africa/Lagos';
export const DEFAULT_CURRENCY = 'NGN';

export interface User {
  readonly id: string;
  phone: E164Phone | null;
  email: string | null;
  firstName: string;
  lastName: string;
  verifiedAt: Date | null;
  readonly createdAt: Date;
  updatedAt: Date;
}

/** A person not yet verified, known by the phone or e-mail they will sign in with. */
export const newUser = (id: string, identifier: Identifier, firstName: string, lastName: string, now: Date): User => ({
  id,
  phone: identifier.kind === 'phone' ? identifier.value : null,
  email: identifier.kind === 'email' ? identifier.value : null,
  firstName,
  lastName,
  verifiedAt: null,
  createdAt: now,
  updatedAt: now,
});

export interface Business {
  readonly id: string;
  name: string;
  phone: string | null;
  email: string | null;
  address: string | null;
  category: string | null;
  logoUrl: string | null;
  plan: Plan;
  /** VAT settings (docs/adr/0054): not registered, no VAT on anything, whatever the other three hold. */
  vatRegistered: boolean;
  /** Tax Identification Number (TIN_PATTERN, domain/vat.ts), printed on receipts; null until given. */
  tin: string | null;
  /** Basis points (750 = 7.5 %). */
  vatRate: VatRate;
  pricesIncludeVat: boolean;
  /** Invoice settings (docs/adr/0072): default payment terms and the bank details invoices print. */
  paymentTermsDays: InvoiceSettings['paymentTermsDays'];
  bankName: string | null;
  accountNumber: string | null;
  accountName: string | null;
  invoiceFooter: string | null;
  readonly currency: string;
  readonly timezone: string;
  readonly createdAt: Date;
  updatedAt: Date;
}

export interface Branch {
  readonly id: string;
  readonly businessId: string;
  name: string;
  address: string | null;
  phone: string | null;
  isDefault: boolean;
  archivedAt: Date | null;
  readonly createdAt: Date;
  updatedAt: Date;
}

/** `field`: the request field naming it, when not `branch_id`. */
export type UnknownBranch = { readonly _tag: 'UnknownBranch'; readonly branchId: string; readonly field?: string };

export type MembershipStatus = 'INVITED' | 'ACTIVE' | 'DEACTIVATED';

/** An invitation not accepted (signed in) within this time lapses: it holds the phone or e-mail no longer. */
export const INVITATION_TTL_MS = 7 * 24 * 3_600_000;

export const isLapsedInvitation = (m: Pick<Membership, 'status' | 'createdAt'>, now: Date): boolean =>
  m.status === 'INVITED' && m.createdAt.getTime() + INVITATION_TTL_MS <= now.getTime();

/**
 * Whether a membership claims its person: an active member, or an invitation still open. A
 * deactivated member or a lapsed invitation does not stop the person registering their own business
 * or joining another (an owner cannot squat a phone number by inviting and deactivating it).
 */
export const holdsIdentity = (m: Pick<Membership, 'status' | 'createdAt'>, now: Date): boolean =>
  m.status === 'ACTIVE' || (m.status === 'INVITED' && !isLapsedInvitation(m, now));

/** A user's place in a business: at most one that is not DEACTIVATED per user. */
export interface Membership {
  readonly id: string;
  readonly businessId: string;
  readonly userId: string;
  role: Role;
  branchId: string | null;
  status: MembershipStatus;
  readonly createdAt: Date;
  updatedAt: Date;
}
