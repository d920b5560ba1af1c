import * as E from 'fp-ts/lib/Either.js';
import type { AccountDeactivated, DuplicateIdentifier, InvalidOtp, InvitationExpired, OtpExpired, OtpSendRefused, RefreshTokenInvalid, SessionNotFound } from '../../application/auth/errors.js';
import type { AlreadyMember, CannotDeactivateSelf, DefaultBranchProtected, LastOwner, NotFound, UnknownBranch } from '../../application/business/errors.js';
import type { Overpayment } from '../../application/customers/credit.js';
import type { DuplicatePhone } from '../../application/customers/manage-customers.js';
import type { InsufficientStock, ServiceHasNoStock, StockLimitExceeded } from '../../application/products/adjust-stock.js';
import type { DuplicateSku, ProductRulesBroken } from '../../application/products/manage-products.js';
import type { BranchHasStock, WrongBranch } from '../../application/products/branch-stock.js';
import type { TransferFailure } from '../../application/products/transfer-stock.js';
import type { SaleFailure } from '../../application/sales/record-sale.js';
import type { SaleAlreadyVoided } from '../../application/sales/void-sale.js';
import type { FeatureNotAvailable } from '../../domain/plan.js';
import type { TinRequired } from '../../domain/vat.js';
import type { InvalidReportRange } from '../../domain/report.js';
import type { AmountNotPositive, NegativeAmount, NegativePrice, QuantityNotPositive, ZeroQuantityChange } from '../../domain/amount-rules.js';
import type { ProductRule } from '../../domain/product.js';
import { nairaText } from './json-values.js';
import { EXPENSE_FAILURES, type ExpenseModuleFailure } from './expense-failures.js';
import { GOOGLE_FAILURES, type GoogleFailure } from './google-failures.js';
import { LOAN_PACK_FAILURES, type LoanPackFailure } from './loan-pack-failures.js';
import { NOTIFICATION_FAILURES, type NotificationFailure } from './notification-failures.js';
import { SYNC_FAILURES, type SyncFailure } from './sync-failures.js';
import { PARTNER_FAILURES, PARTNER_NOT_FOUND, type PartnerFailure, type PartnerSubject } from './partner-failures.js';
import { problem, type ErrorCode, type Problem } from './problem.js';

/**
 * Every failure a use case answers with. A use case that gains a failure type adds it here; a tag
 * without its entry in FAILURES below does not compile, so no failure can fall through to a 500.
 */
export type UseCaseFailure =
  | SaleFailure
  | TransferFailure
  | WrongBranch
  | BranchHasStock
  | SaleAlreadyVoided
  | NotFound
  | InsufficientStock
  | ServiceHasNoStock
  | StockLimitExceeded
  | DuplicateSku
  | ProductRulesBroken
  | DuplicatePhone
  | Overpayment
  | NegativePrice
  | NegativeAmount
  | AmountNotPositive
  | QuantityNotPositive
  | ZeroQuantityChange
  | DuplicateIdentifier
  | InvalidOtp
  | OtpExpired
  | OtpSendRefused
  | RefreshTokenInvalid
  | AccountDeactivated
  | InvitationExpired
  | SessionNotFound
  | GoogleFailure
  | UnknownBranch
  | DefaultBranchProtected
  | TinRequired
  | AlreadyMember
  | LastOwner
  | CannotDeactivateSelf
  | ExpenseModuleFailure
  | InvalidReportRange
  | FeatureNotAvailable
  | NotificationFailure
  | LoanPackFailure
  | SyncFailure
  | PartnerFailure;

export type FailureTag = UseCaseFailure['_tag'];

/**
 * What the route acts on. It names the resource of a 404, and picks the wording where one failure
 * reads differently by operation (a sale's void versus a product's adjustment, logout versus refresh).
 */
export type Subject =
  | 'sale'
  | 'conflict'
  | 'receipt'
  | 'customer'
  | 'product'
  | 'stock adjustment'
  | 'stock transfer'
  | 'staff member'
  | 'business'
  | 'branch'
  | 'session'
  | 'sign-in'
  | 'signed-in user'
  | 'expense'
  | 'expense category'
  | 'report'
  | 'notification'
  | 'loan pack'
  | PartnerSubject;

/** The command's field as the JSON request spells it: `items.0.unitPrice` is `items.0.unit_price`. */
const wire = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Fields that broke one rule: listed in the detail and each named in `errors`. */
const fieldsBroken = (code: ErrorCode, fields: readonly string[], message: string, detail: (list: string) => string) => {
  const names = fields.map(wire);
  return problem(code, detail(names.join(', ')), { errors: names.map((field) => ({ field, message })) });
};

/** A sale lists every negative field under one heading; a single field elsewhere is named alone. */
const negative = (code: 'NEGATIVE_PRICE' | 'AMOUNT_MUST_NOT_BE_NEGATIVE', fields: readonly string[], subject: Subject) =>
  fieldsBroken(code, fields, 'must not be negative', (list) =>
    subject === 'sale' ? `${code === 'NEGATIVE_PRICE' ? 'Prices' : 'Amounts'} must not be negative: ${list}.` : `${list} must not be negative.`,
  );

const NOT_FOUND: Record<Subject, string> = {
  sale: 'No such sale.',
  conflict: 'No such conflict.',
  receipt: 'No such receipt.',
  customer: 'No such customer.',
  product: 'No such product.',
  'stock adjustment': 'No such stock adjustment.',
  'stock transfer': 'No such stock transfer.',
  'staff member': 'No such staff member.',
  business: 'No such business.',
  branch: 'No such branch.',
  session: 'No such session.',
  'sign-in': 'No such sign-in.',
  'signed-in user': 'The signed-in user no longer exists.',
  expense: 'No such expense.',
  'expense category': 'No such expense category.',
  report: 'No such report.',
  notification: 'No such notification.',
  'loan pack': 'No such loan pack.',
  ...PARTNER_NOT_FOUND,
};

/** Each product rule answers with the error code of its name (ADR 0013). */
const PRODUCT_RULE_CODES: Record<ProductRule, ErrorCode> = {
  NEGATIVE_PRICE: 'NEGATIVE_PRICE',
  QUANTITY_MUST_NOT_BE_NEGATIVE: 'QUANTITY_MUST_NOT_BE_NEGATIVE',
  STOCK_LIMIT_EXCEEDED: 'STOCK_LIMIT_EXCEEDED',
  SERVICE_HAS_NO_STOCK: 'SERVICE_HAS_NO_STOCK',
};

const deactivated = () => problem('ACCOUNT_DEACTIVATED', 'This account has been deactivated by the business owner.');
const unknownBranch = (f: UnknownBranch) => {
  const field = f.field ?? 'branch_id';
  return problem('UNKNOWN_BRANCH', `${field} does not name a branch of this business.`, { errors: [{ field, message: 'is not a branch of this business' }] });
};
const discountTooLarge = (field: string, detail: string, message: string) => problem('DISCOUNT_TOO_LARGE', detail, { errors: [{ field, message }] });
const retryAfter = (seconds: number) => ({ 'Retry-After': String(seconds) });
type Mapping = { readonly [K in FailureTag]: (f: Extract<UseCaseFailure, { _tag: K }>, subject: Subject) => Problem };

/** The one mapping from a use-case failure to its Problem Details (code, detail, field errors, headers). */
export const FAILURES: Mapping = {
  NotFound: (_, subject) => problem('RESOURCE_NOT_FOUND', NOT_FOUND[subject]),
  SessionNotFound: () => problem('RESOURCE_NOT_FOUND', NOT_FOUND.session),

  NegativePrice: (f, subject) => negative('NEGATIVE_PRICE', f.fields, subject),
  NegativeAmount: (f, subject) => negative('AMOUNT_MUST_NOT_BE_NEGATIVE', f.fields, subject),
  AmountNotPositive: (f) => fieldsBroken('AMOUNT_MUST_BE_POSITIVE', [f.field], 'must be more than zero', (list) => `${list} must be more than zero.`),
  // The request codecs refuse these first (400, ADR 0013); a program embedding the use cases meets them.
  QuantityNotPositive: (f) =>
    fieldsBroken('VALIDATION_FAILED', f.fields, 'must be a whole number of at least 1', (list) => `The request is invalid: ${list} must be whole numbers of at least 1.`),
  ZeroQuantityChange: (f) =>
    fieldsBroken('VALIDATION_FAILED', [f.field], 'must be a whole number other than zero', (list) => `The request is invalid: ${list} must be a whole number other than zero.`),

  ProductRulesBroken: ({ violations }) =>
    problem(
      PRODUCT_RULE_CODES[violations[0]!.rule], // the first broken rule answers
      `The product breaks a rule: ${violations.map((v) => `${v.field} ${v.message}`).join('; ')}.`,
      { errors: violations },
    ),
  DuplicateSku: (f) => problem('DUPLICATE_SKU', `Another product of this business already has the SKU ${f.sku}.`, { errors: [{ field: 'sku', message: 'is already used' }] }),
  ServiceHasNoStock: () => problem('SERVICE_HAS_NO_STOCK', 'A service keeps no stock.'),
  // A sale's or a transfer's line carries the product's name and its place in the list; an adjustment names neither.
  // Each names the branch and what it holds (another branch's stock is not this one's).
  InsufficientStock: (f) =>
    'name' in f
      ? problem('INSUFFICIENT_STOCK', `Not enough ${f.name} at ${f.branchName}: ${f.available} available there, ${f.requested} wanted.`, {
          errors: [{ field: `items.${f.index}.quantity`, message: `only ${f.available} of ${f.name} available at ${f.branchName} (branch ${f.branchId})` }],
        })
      : problem('INSUFFICIENT_STOCK', `Only ${f.available} in stock at ${f.branchName} (branch ${f.branchId}); cannot take ${f.requested}.`),
  WrongBranch: (f) =>
    problem('WRONG_BRANCH', 'You are assigned to another branch: you sell and adjust stock only there (the owner can move you).', {
      errors: [{ field: 'branch_id', message: `must be your branch, ${f.assignedBranchId}` }],
    }),
  BranchHasStock: () =>
    problem('BRANCH_HAS_STOCK', 'The branch still holds stock; transfer it to another branch (POST /products/stock-transfers) before archiving it.'),
  SameBranch: () =>
    problem('VALIDATION_FAILED', 'The request is invalid: to_branch_id must differ from from_branch_id.', { errors: [{ field: 'to_branch_id', message: 'must differ from from_branch_id' }] }),
  ServiceItems: (f) =>
    problem('SERVICE_HAS_NO_STOCK', 'Some items name a service, which keeps no stock to move.', {
      errors: f.indexes.map((i) => ({ field: `items.${i}.product_id`, message: 'is a service' })),
    }),
  StockLimitExceeded: (f, subject) =>
    subject === 'sale'
      ? problem('STOCK_LIMIT_EXCEEDED', `Returning the stock would take a product above ${f.max} units (it has ${f.available}); adjust it down first.`)
      : problem('STOCK_LIMIT_EXCEEDED', `A product holds at most ${f.max} units; it has ${f.available}.`, {
          errors: [{ field: 'quantity_change', message: `would take the stock above ${f.max}` }],
        }),

  UnknownProducts: (f) =>
    problem('UNKNOWN_PRODUCT', 'Some items name no product of this business.', {
      errors: f.indexes.map((i) => ({ field: `items.${i}.product_id`, message: 'is not a product of this business' })),
    }),
  ArchivedProducts: (f) =>
    problem('PRODUCT_ARCHIVED', 'Some items name an archived product; restore it (POST /products/{id}/restore) to sell it again.', {
      errors: f.indexes.map((i) => ({ field: `items.${i}.product_id`, message: 'is an archived product' })),
    }),
  UnknownCustomer: () =>
    problem('UNKNOWN_CUSTOMER', 'customer_id names no customer of this business.', { errors: [{ field: 'customer_id', message: 'is not a customer of this business' }] }),
  CustomerRequired: () =>
    problem('CUSTOMER_REQUIRED', 'A credit sale (CREDIT, or paid less than the total) needs a customer_id.', {
      errors: [{ field: 'customer_id', message: 'is required for a credit sale' }],
    }),
  CreditLimitExceeded: (f) =>
    problem('CREDIT_LIMIT_EXCEEDED', `This sale would take the customer over their credit limit of ${nairaText(f.limit)} (they owe ${nairaText(f.balance)}).`, {
      errors: [{ field: 'customer_id', message: 'credit limit exceeded' }],
    }),
  CreditBalanceLimitExceeded: (f) =>
    problem(
      'CREDIT_BALANCE_LIMIT_EXCEEDED',
      f.scope === 'customer'
        ? `A customer can owe at most 1,000,000,000,000.00; this customer owes ${nairaText(f.balance)}.`
        : "The business's customers together would owe more than the books can hold (2^53 kobo); take payments first.",
      { errors: [{ field: 'customer_id', message: 'outstanding credit would pass the maximum' }] },
    ),
  UnknownBranch: unknownBranch,
  LineDiscountTooLarge: (f) => discountTooLarge(`items.${f.index}.discount`, `The discount of item ${f.index} is larger than its line.`, 'is larger than the line'),
  SaleDiscountTooLarge: () => discountTooLarge('discount', 'The discount is larger than the sale.', 'is larger than the subtotal'),
  AmountPaidExceedsTotal: () =>
    problem(
      'AMOUNT_PAID_EXCEEDS_TOTAL',
      'amount_paid is more than the total. amount_paid is what the sale receives; send the cash handed over as amount_tendered and the change comes back as change_due.',
      { errors: [{ field: 'amount_paid', message: 'is more than the total' }] },
    ),
  AmountTenderedTooSmall: (f) =>
    f.short === 'total'
      ? problem('AMOUNT_TENDERED_TOO_SMALL', `amount_tendered is less than the total (${nairaText(f.amountPaid)}); to leave the rest on credit, send customer_id.`, {
          errors: [{ field: 'amount_tendered', message: 'is less than the total' }],
        })
      : f.short === 'cash'
        ? problem('AMOUNT_TENDERED_TOO_SMALL', `amount_tendered is less than the CASH tender (${nairaText(f.amountPaid)}).`, {
            errors: [{ field: 'amount_tendered', message: 'is less than the CASH tender' }],
          })
        : problem('AMOUNT_TENDERED_TOO_SMALL', `amount_tendered is less than the amount paid (${nairaText(f.amountPaid)}).`, {
            errors: [{ field: 'amount_tendered', message: 'is less than amount_paid' }],
          }),
  PaymentsDoNotMatchTotal: (f) =>
    problem('PAYMENTS_DO_NOT_MATCH_TOTAL', `The payments add up to ${nairaText(f.paid)}; the sale's total is ${nairaText(f.total)}. Tenders must add up to the total exactly (a CREDIT tender for what is left owed).`, {
      errors: [{ field: 'payments', message: `must add up to the total, ${nairaText(f.total)}` }],
    }),
  InvalidTenders: (f) =>
    problem('VALIDATION_FAILED', `The request is invalid: ${f.field} ${f.reason}.`, { errors: [{ field: f.field, message: f.reason }] }),
  AmountTooLarge: () => problem('AMOUNT_TOO_LARGE', 'The sale comes to more than 1,000,000,000,000.00.', { errors: [{ field: 'items', message: 'total too large' }] }),
  PlanLimitExceeded: (f) =>
    problem('PLAN_LIMIT_EXCEEDED', `The ${f.plan} plan records at most ${f.limit} sales a month; upgrade to record more.`, {
      headers: { 'Plan-Sales-Limit': String(f.limit), 'Plan-Sales-Remaining': '0' },
    }),
  SaleAlreadyVoided: () => problem('SALE_ALREADY_VOIDED', 'This sale is already voided.'),

  DuplicatePhone: () =>
    problem('DUPLICATE_PHONE', 'Another customer of this business has this phone number.', { errors: [{ field: 'phone', message: 'is already used' }] }),
  Overpayment: (f) =>
    problem('OVERPAYMENT', `The customer owes ${nairaText(f.balance)}; a payment cannot be more than that.`, {
      errors: [{ field: 'amount', message: `is more than the balance (${nairaText(f.balance)})` }],
    }),

  DuplicateIdentifier: (f) =>
    f.kind === 'phone'
      ? problem('DUPLICATE_PHONE', 'This phone number is already registered; sign in with /auth/login.')
      : problem('DUPLICATE_EMAIL', 'This e-mail address is already registered; sign in with /auth/login.'),
  ResendTooSoon: (f) =>
    problem('OTP_RESEND_TOO_SOON', `A code was sent moments ago; ask for a new one in ${f.retryAfterSeconds} s.`, { headers: retryAfter(f.retryAfterSeconds) }),
  HourlyCapReached: (f) =>
    problem('OTP_HOURLY_LIMIT', `Too many codes were sent to this identifier in the last hour; try again in ${f.retryAfterSeconds} s.`, {
      headers: retryAfter(f.retryAfterSeconds),
    }),
  InvalidOtp: () => problem('INVALID_OTP', 'The code is wrong, used or no longer valid.', { errors: [{ field: 'otp', message: 'is invalid' }] }),
  OtpExpired: () => problem('OTP_EXPIRED', 'The code has expired; ask for a new one.', { errors: [{ field: 'otp', message: 'has expired' }] }),
  AccountDeactivated: deactivated,
  InvitationExpired: () =>
    problem('INVITATION_EXPIRED', 'This invitation was not accepted within 7 days; ask the business owner to invite you again, or register your own business.'),
  // Logging out with a string that was never a token versus refreshing with a spent one.
  RefreshTokenInvalid: (_, subject) =>
    subject === 'session'
      ? problem('REFRESH_TOKEN_INVALID', 'This is not a refresh token issued by this API; nothing was signed out.')
      : problem('REFRESH_TOKEN_INVALID', 'The refresh token is invalid, expired or already used; sign in again.'),

  ...GOOGLE_FAILURES,

  DefaultBranchProtected: () => problem('DEFAULT_BRANCH_PROTECTED', 'The default branch cannot be deleted.'),
  TinRequired: () =>
    problem('TIN_REQUIRED', 'A VAT-registered business prints its TIN on every receipt: send tin with vat_registered true.', {
      errors: [{ field: 'tin', message: 'is required for a VAT-registered business' }],
    }),
  AlreadyMember: () => problem('ALREADY_A_MEMBER', 'This person already belongs to a business.'),
  LastOwner: () => problem('LAST_OWNER', 'A business keeps at least one active owner.'),
  CannotDeactivateSelf: () => problem('CANNOT_DEACTIVATE_SELF', 'You cannot deactivate yourself.'),

  ...EXPENSE_FAILURES,

  InvalidReportRange: (f) => problem('VALIDATION_FAILED', `The query is invalid: ${f.field} ${f.reason}.`, { errors: [{ field: f.field, message: f.reason }] }),
  ...NOTIFICATION_FAILURES,

  FeatureNotAvailable: (f) =>
    problem('FEATURE_NOT_AVAILABLE', `This report is not part of the ${f.plan} plan; it comes with the ${f.plans.join(' and ')} plans.`),
  ...LOAN_PACK_FAILURES,
  ...SYNC_FAILURES,
  ...PARTNER_FAILURES, // api keys, networks, webhooks (docs/adr/0033)
};

/** The Problem Details of a failure of a route acting on `subject`. */
export const failureProblem = (f: UseCaseFailure, subject: Subject): Problem => (FAILURES[f._tag] as (f: UseCaseFailure, subject: Subject) => Problem)(f, subject);

/** A use case's success, or its failure thrown as Problem Details (rendered once by the app). */
export const successOf = <A>(result: E.Either<UseCaseFailure, A>, subject: Subject): A => {
  if (E.isLeft(result)) throw failureProblem(result.left, subject);
  return result.right;
};
