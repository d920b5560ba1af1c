import type * as E from 'fp-ts/lib/Either.js';
import type { FailureTag, UseCaseFailure } from './failures.js';
import type { ErrorCode } from './problem.js';

/**
 * The error codes each failure can be answered with: what FAILURES (failures.ts and its parts) puts in
 * `problem(code, …)` for that tag, every branch of it (docs/adr/0051). A tag without its entry does not
 * compile; test/http/failure-codes.test.ts runs every mapping and checks it answers only these codes.
 */
export const FAILURE_CODES = {
  NotFound: ['RESOURCE_NOT_FOUND'],
  SessionNotFound: ['RESOURCE_NOT_FOUND'],
  NegativePrice: ['NEGATIVE_PRICE'],
  NegativeAmount: ['AMOUNT_MUST_NOT_BE_NEGATIVE'],
  AmountNotPositive: ['AMOUNT_MUST_BE_POSITIVE'],
  QuantityNotPositive: ['VALIDATION_FAILED'],
  ZeroQuantityChange: ['VALIDATION_FAILED'],
  ProductRulesBroken: ['NEGATIVE_PRICE', 'QUANTITY_MUST_NOT_BE_NEGATIVE', 'STOCK_LIMIT_EXCEEDED', 'SERVICE_HAS_NO_STOCK'],
  DuplicateSku: ['DUPLICATE_SKU'],
  ServiceHasNoStock: ['SERVICE_HAS_NO_STOCK'],
  InsufficientStock: ['INSUFFICIENT_STOCK'],
  WrongBranch: ['WRONG_BRANCH'],
  BranchHasStock: ['BRANCH_HAS_STOCK'],
  SameBranch: ['VALIDATION_FAILED'],
  ServiceItems: ['SERVICE_HAS_NO_STOCK'],
  StockLimitExceeded: ['STOCK_LIMIT_EXCEEDED'],
  UnknownProducts: ['UNKNOWN_PRODUCT'],
  ArchivedProducts: ['PRODUCT_ARCHIVED'],
  UnknownCustomer: ['UNKNOWN_CUSTOMER'],
  CustomerRequired: ['CUSTOMER_REQUIRED'],
  CreditLimitExceeded: ['CREDIT_LIMIT_EXCEEDED'],
  CreditBalanceLimitExceeded: ['CREDIT_BALANCE_LIMIT_EXCEEDED'],
  UnknownBranch: ['UNKNOWN_BRANCH'],
  LineDiscountTooLarge: ['DISCOUNT_TOO_LARGE'],
  SaleDiscountTooLarge: ['DISCOUNT_TOO_LARGE'],
  AmountPaidExceedsTotal: ['AMOUNT_PAID_EXCEEDS_TOTAL'],
  AmountTenderedTooSmall: ['AMOUNT_TENDERED_TOO_SMALL'],
  PaymentsDoNotMatchTotal: ['PAYMENTS_DO_NOT_MATCH_TOTAL'],
  InvalidTenders: ['VALIDATION_FAILED'],
  AmountTooLarge: ['AMOUNT_TOO_LARGE'],
  PlanLimitExceeded: ['PLAN_LIMIT_EXCEEDED'],
  SaleAlreadyVoided: ['SALE_ALREADY_VOIDED'],
  DuplicatePhone: ['DUPLICATE_PHONE'],
  Overpayment: ['OVERPAYMENT'],
  DuplicateIdentifier: ['DUPLICATE_PHONE', 'DUPLICATE_EMAIL'],
  ResendTooSoon: ['OTP_RESEND_TOO_SOON'],
  HourlyCapReached: ['OTP_HOURLY_LIMIT'],
  InvalidOtp: ['INVALID_OTP'],
  OtpExpired: ['OTP_EXPIRED'],
  AccountDeactivated: ['ACCOUNT_DEACTIVATED'],
  InvitationExpired: ['INVITATION_EXPIRED'],
  RefreshTokenInvalid: ['REFRESH_TOKEN_INVALID'],
  GoogleSignInNotConfigured: ['GOOGLE_SIGN_IN_NOT_CONFIGURED'],
  GoogleUnavailable: ['GOOGLE_UNAVAILABLE'],
  GoogleTokenRejected: ['GOOGLE_TOKEN_EXPIRED', 'GOOGLE_TOKEN_INVALID'],
  GoogleEmailNotVerified: ['GOOGLE_EMAIL_NOT_VERIFIED'],
  BusinessNameRequired: ['BUSINESS_NAME_REQUIRED'],
  GoogleAccountInUse: ['GOOGLE_ACCOUNT_IN_USE'],
  GoogleAccountMismatch: ['GOOGLE_ACCOUNT_MISMATCH'],
  DefaultBranchProtected: ['DEFAULT_BRANCH_PROTECTED'],
  TinRequired: ['TIN_REQUIRED'],
  AlreadyMember: ['ALREADY_A_MEMBER'],
  LastOwner: ['LAST_OWNER'],
  CannotDeactivateSelf: ['CANNOT_DEACTIVATE_SELF'],
  UnknownCategory: ['UNKNOWN_CATEGORY'],
  SpentOnInFuture: ['SPENT_ON_IN_FUTURE'],
  VatExceedsAmount: ['VAT_EXCEEDS_AMOUNT'],
  DuplicateCategory: ['DUPLICATE_CATEGORY'],
  CategoryInUse: ['CATEGORY_IN_USE'],
  InvalidReportRange: ['VALIDATION_FAILED'],
  UnknownSale: ['UNKNOWN_SALE'],
  CustomerHasNoPhone: ['CUSTOMER_HAS_NO_PHONE'],
  CustomerOptedOut: ['CUSTOMER_OPTED_OUT'],
  NothingOwed: ['NOTHING_OWED'],
  CustomMessageOwnerOnly: ['INSUFFICIENT_ROLE'],
  RecipientNotAllowed: ['RECIPIENT_NOT_ALLOWED'],
  LinksNotAllowed: ['FEATURE_NOT_AVAILABLE'],
  DailyLimitExceeded: ['PLAN_LIMIT_EXCEEDED'],
  FeatureNotAvailable: ['FEATURE_NOT_AVAILABLE'],
  LoanPackPaymentRequired: ['LOAN_PACK_PAYMENT_REQUIRED'],
  NoPaymentDue: ['NO_PAYMENT_DUE'],
  PayerEmailRequired: ['PAYER_EMAIL_REQUIRED'],
  PaymentGatewayUnavailable: ['PAYMENT_GATEWAY_UNAVAILABLE'],
  PaymentAmountMismatch: ['PAYMENT_AMOUNT_MISMATCH'],
  WebhookSignatureInvalid: ['WEBHOOK_SIGNATURE_INVALID'],
  ClientIdConflict: ['CLIENT_ID_CONFLICT'],
  ProvisionalReceiptNumberTaken: ['PROVISIONAL_RECEIPT_NUMBER_TAKEN'],
  ConflictAlreadyResolved: ['CONFLICT_ALREADY_RESOLVED'],
  SyncCursorAhead: ['VALIDATION_FAILED'],
  ScopeNotHeld: ['INSUFFICIENT_SCOPE'],
  KeyScopesNotHeld: ['INSUFFICIENT_SCOPE'],
  UnknownPartnerCode: ['UNKNOWN_PARTNER_CODE'],
  AlreadyInPartnerNetwork: ['ALREADY_IN_PARTNER_NETWORK'],
  WebhookUrlNotAllowed: ['WEBHOOK_URL_NOT_ALLOWED'],
} as const satisfies { readonly [K in FailureTag]: readonly ErrorCode[] };

/** The failure union of a use case: the Left of the Either it answers (or resolves to). */
export type FailureOf<U> = U extends (...args: never[]) => Promise<E.Either<infer F, unknown>> ? F : U extends (...args: never[]) => E.Either<infer F, unknown> ? F : never;

/** The error codes a failure union can be answered with. */
export type CodesOf<F extends UseCaseFailure> = (typeof FAILURE_CODES)[F['_tag']][number];

/**
 * Exactly the tags of a failure union, each once: a missing tag or one the union lacks does not compile.
 * `{ NotFound: true, SaleAlreadyVoided: true }` for `NotFound | SaleAlreadyVoided`.
 */
export type TagSet<F extends UseCaseFailure> = { readonly [K in F['_tag']]: true };

/** The failures a route answers, as RouteDef.failures holds them (its tags at run time). */
export type Failures = readonly FailureTag[];

/**
 * A route's failures, checked against the failure union `F` of the use case(s) it calls
 * (`failuresOf<FailureOf<typeof uc.voidSale>>({ NotFound: true, SaleAlreadyVoided: true })`): the
 * document's error codes of the route are derived from them (openapi.ts errorCodesOf).
 */
export const failuresOf = <F extends UseCaseFailure>(tags: TagSet<F>): Failures => Object.keys(tags) as FailureTag[];

/** The codes the failures of a route can be answered with. */
export const codesOfFailures = (tags: Failures): ErrorCode[] => [...new Set(tags.flatMap((tag): readonly ErrorCode[] => FAILURE_CODES[tag]))];
