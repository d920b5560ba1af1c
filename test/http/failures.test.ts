import { readdirSync, readFileSync } from 'node:fs';
import { expect } from 'chai';
import type { Subject } from '../../adapters/http/failures.js';
import { failureProblem as problemOf } from '../../adapters/http/failure-codes.js';
import type { ErrorCode } from '../../adapters/http/problem.js';
import { ERROR_CODES, FAILURES, type FailureTag, type UseCaseFailure } from '../../bootstrap/failures.js';
import { kobo } from '../../domain/money.js';

/** Codes only the edge answers: parsing, authentication, routing, idempotency, limits and faults. */
const EDGE_ONLY: readonly ErrorCode[] = [
  'MALFORMED_JSON',
  'TOKEN_MISSING',
  'TOKEN_INVALID',
  'TOKEN_EXPIRED',
  'SESSION_REVOKED',
  'API_KEY_MISSING',
  'API_KEY_INVALID',
  'API_KEY_EXPIRED',
  // INSUFFICIENT_ROLE: the edge's role check, and CustomMessageOwnerOnly (a CUSTOM notification from STAFF)
  'ROUTE_NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'IDEMPOTENCY_IN_PROGRESS',
  'IDEMPOTENCY_KEY_REUSED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'HEADERS_TOO_LARGE',
  'RATE_LIMITED',
  'INTERNAL',
  'DATABASE_UNAVAILABLE',
  // the providers' callbacks: their handshake and configuration (adapters/http/provider-callbacks.ts); their
  // WEBHOOK_SIGNATURE_INVALID is also the Paystack webhook's failure (WebhookSignatureInvalid), so not edge-only
  'WEBHOOK_VERIFICATION_FAILED',
  'WEBHOOK_NOT_CONFIGURED',
];
/** Codes the spec names for features not built yet; nothing answers them today. */
const RESERVED: readonly ErrorCode[] = [];

/** At least one failure of every tag (a new tag does not compile until it has one), covering each variant the mapping tells apart. */
const EXAMPLES: { readonly [K in FailureTag]: readonly Extract<UseCaseFailure, { _tag: K }>[] } = {
  NotFound: [{ _tag: 'NotFound' }],
  SessionNotFound: [{ _tag: 'SessionNotFound' }],
  NegativePrice: [{ _tag: 'NegativePrice', fields: ['items.0.unitPrice'] }],
  NegativeAmount: [{ _tag: 'NegativeAmount', fields: ['amountPaid', 'discount'] }],
  AmountNotPositive: [{ _tag: 'AmountNotPositive', field: 'amount' }],
  QuantityNotPositive: [{ _tag: 'QuantityNotPositive', fields: ['items.1.quantity'] }],
  ZeroQuantityChange: [{ _tag: 'ZeroQuantityChange', field: 'quantityChange' }],
  ProductRulesBroken: (['NEGATIVE_PRICE', 'QUANTITY_MUST_NOT_BE_NEGATIVE', 'STOCK_LIMIT_EXCEEDED', 'SERVICE_HAS_NO_STOCK'] as const).map((rule) => ({
    _tag: 'ProductRulesBroken' as const,
    violations: [{ rule, field: 'price', message: 'is wrong' }],
  })),
  DuplicateSku: [{ _tag: 'DuplicateSku', sku: 'RICE-5' }],
  ProvisionalReceiptNumberTaken: [{ _tag: 'ProvisionalReceiptNumberTaken', number: 'TILL1-000042' }],
  ConflictAlreadyResolved: [{ _tag: 'ConflictAlreadyResolved' }],
  SyncCursorAhead: [{ _tag: 'SyncCursorAhead' }],
  ClientIdConflict: [{ _tag: 'ClientIdConflict', id: '3f1c2a4e-8b7d-4c6e-9a1b-2d3e4f5a6b7c' }],
  ServiceHasNoStock: [{ _tag: 'ServiceHasNoStock' }],
  InsufficientStock: [
    { _tag: 'InsufficientStock', productId: 'p', available: 1, requested: 2, branchId: 'b', branchName: 'Lekki' },
    { _tag: 'InsufficientStock', productId: 'p', available: 1, requested: 2, name: 'Rice', index: 0, branchId: 'b', branchName: 'Lekki' },
  ],
  WrongBranch: [{ _tag: 'WrongBranch', branchId: 'b', assignedBranchId: 'a' }],
  BranchHasStock: [{ _tag: 'BranchHasStock', branchId: 'b' }],
  SameBranch: [{ _tag: 'SameBranch' }],
  ServiceItems: [{ _tag: 'ServiceItems', indexes: [0] }],
  StockLimitExceeded: [{ _tag: 'StockLimitExceeded', productId: 'p', available: 5, max: 10 }],
  UnknownProducts: [{ _tag: 'UnknownProducts', indexes: [0] }],
  ArchivedProducts: [{ _tag: 'ArchivedProducts', indexes: [1] }],
  UnknownCustomer: [{ _tag: 'UnknownCustomer' }],
  UnknownSale: [{ _tag: 'UnknownSale' }],
  CustomerHasNoPhone: [{ _tag: 'CustomerHasNoPhone' }],
  CustomerOptedOut: [{ _tag: 'CustomerOptedOut' }],
  NothingOwed: [{ _tag: 'NothingOwed' }],
  CustomMessageOwnerOnly: [{ _tag: 'CustomMessageOwnerOnly' }],
  RecipientNotAllowed: [{ _tag: 'RecipientNotAllowed' }],
  LinksNotAllowed: [{ _tag: 'LinksNotAllowed', plan: 'FREE', plans: ['BUSINESS', 'PRO'] }],
  DailyLimitExceeded: [
    { _tag: 'DailyLimitExceeded', plan: 'FREE', quota: 'MESSAGES', limit: 20 },
    { _tag: 'DailyLimitExceeded', plan: 'FREE', quota: 'INVITATIONS', limit: 20 },
  ],
  CustomerRequired: [{ _tag: 'CustomerRequired' }],
  CreditLimitExceeded: [{ _tag: 'CreditLimitExceeded', balance: kobo(100), limit: kobo(150) }],
  CreditBalanceLimitExceeded: [
    { _tag: 'CreditBalanceLimitExceeded', balance: kobo(100), scope: 'customer' },
    { _tag: 'CreditBalanceLimitExceeded', balance: kobo(100), scope: 'business' },
  ],
  UnknownBranch: [{ _tag: 'UnknownBranch', branchId: 'b' }],
  LineDiscountTooLarge: [{ _tag: 'LineDiscountTooLarge', index: 0 }],
  SaleDiscountTooLarge: [{ _tag: 'SaleDiscountTooLarge' }],
  AmountPaidExceedsTotal: [{ _tag: 'AmountPaidExceedsTotal' }],
  AmountTenderedTooSmall: [
    { _tag: 'AmountTenderedTooSmall', amountPaid: kobo(500) },
    { _tag: 'AmountTenderedTooSmall', amountPaid: kobo(500), short: 'total' },
    { _tag: 'AmountTenderedTooSmall', amountPaid: kobo(500), short: 'cash' },
  ],
  PaymentsDoNotMatchTotal: [{ _tag: 'PaymentsDoNotMatchTotal', total: kobo(500), paid: 400 }],
  InvalidTenders: [{ _tag: 'InvalidTenders', field: 'payments', reason: 'must hold 1 to 4 tenders' }],
  AmountTooLarge: [{ _tag: 'AmountTooLarge' }],
  PlanLimitExceeded: [{ _tag: 'PlanLimitExceeded', plan: 'FREE', limit: 50 }],
  SaleAlreadyVoided: [{ _tag: 'SaleAlreadyVoided' }],
  DuplicatePhone: [{ _tag: 'DuplicatePhone' }],
  Overpayment: [{ _tag: 'Overpayment', balance: kobo(100) }],
  DuplicateIdentifier: [
    { _tag: 'DuplicateIdentifier', kind: 'phone' },
    { _tag: 'DuplicateIdentifier', kind: 'email' },
  ],
  ResendTooSoon: [{ _tag: 'ResendTooSoon', retryAfterSeconds: 30 }],
  HourlyCapReached: [{ _tag: 'HourlyCapReached', retryAfterSeconds: 600 }],
  InvalidOtp: [{ _tag: 'InvalidOtp' }],
  OtpExpired: [{ _tag: 'OtpExpired' }],
  AccountDeactivated: [{ _tag: 'AccountDeactivated' }],
  InvitationExpired: [{ _tag: 'InvitationExpired' }],
  RefreshTokenInvalid: [{ _tag: 'RefreshTokenInvalid' }],
  DefaultBranchProtected: [{ _tag: 'DefaultBranchProtected' }],
  TinRequired: [{ _tag: 'TinRequired' }],
  AlreadyMember: [{ _tag: 'AlreadyMember' }],
  LastOwner: [{ _tag: 'LastOwner' }],
  CannotDeactivateSelf: [{ _tag: 'CannotDeactivateSelf' }],
  UnknownCategory: [{ _tag: 'UnknownCategory', categoryId: 'c' }],
  VatExceedsAmount: [{ _tag: 'VatExceedsAmount', vatAmount: kobo(200), amount: kobo(100) }],
  SpentOnInFuture: [{ _tag: 'SpentOnInFuture', spentOn: '2026-11-23', today: '2026-11-22' }],
  DuplicateCategory: [{ _tag: 'DuplicateCategory', name: 'Rent' }],
  CategoryInUse: [{ _tag: 'CategoryInUse' }],
  InvalidReportRange: [{ _tag: 'InvalidReportRange', field: 'end_date', reason: 'is before start_date' }],
  FeatureNotAvailable: [{ _tag: 'FeatureNotAvailable', plan: 'STARTER', feature: 'TOP_SERVICES', plans: ['BUSINESS', 'PRO'] }],
  GoogleSignInNotConfigured: [{ _tag: 'GoogleSignInNotConfigured' }],
  GoogleUnavailable: [{ _tag: 'GoogleUnavailable' }],
  GoogleTokenRejected: (['expired', 'audience', 'issuer', 'signature', 'malformed'] as const).map((reason) => ({ _tag: 'GoogleTokenRejected' as const, reason })),
  GoogleEmailNotVerified: [{ _tag: 'GoogleEmailNotVerified' }],
  BusinessNameRequired: [{ _tag: 'BusinessNameRequired' }],
  GoogleAccountInUse: [{ _tag: 'GoogleAccountInUse' }],
  GoogleAccountMismatch: [{ _tag: 'GoogleAccountMismatch' }],
  LoanPackPaymentRequired: [{ _tag: 'LoanPackPaymentRequired', plan: 'FREE', reference: 'LP-20261121-ABCDEF', price: 500_000 }],
  NoPaymentDue: [
    { _tag: 'NoPaymentDue', status: 'READY' },
    { _tag: 'NoPaymentDue', status: 'PENDING_PAYMENT' },
  ],
  PayerEmailRequired: [{ _tag: 'PayerEmailRequired' }],
  PaymentGatewayUnavailable: [{ _tag: 'PaymentGatewayUnavailable', gateway: 'paystack' }],
  PaymentAmountMismatch: [{ _tag: 'PaymentAmountMismatch', expected: 500_000, paid: 100, currency: 'NGN' }],
  WebhookSignatureInvalid: [{ _tag: 'WebhookSignatureInvalid' }],
  ScopeNotHeld: [{ _tag: 'ScopeNotHeld', scopes: ['keys:manage'] }],
  KeyScopesNotHeld: [{ _tag: 'KeyScopesNotHeld', scopes: ['analytics:read'] }],
  UnknownPartnerCode: [{ _tag: 'UnknownPartnerCode' }],
  AlreadyInPartnerNetwork: [{ _tag: 'AlreadyInPartnerNetwork' }],
  WebhookUrlNotAllowed: [{ _tag: 'WebhookUrlNotAllowed', reason: 'must be an https URL' }],
  ReturnExceedsSold: [{ _tag: 'ReturnExceedsSold', index: 0, productId: 'p', name: 'Milk', sold: 3, returned: 1, requested: 3 }],
  ProductNotInSale: [{ _tag: 'ProductNotInSale', indexes: [1] }],
  CreditNoteNeedsCustomer: [{ _tag: 'CreditNoteNeedsCustomer' }],
  SaleHasReturns: [{ _tag: 'SaleHasReturns', returns: 1 }, { _tag: 'SaleHasReturns', returns: 2 }],
  InvoiceNotDraft: [{ _tag: 'InvoiceNotDraft', status: 'SENT' }],
  InvoiceNotPayable: [{ _tag: 'InvoiceNotPayable', status: 'DRAFT', type: 'INVOICE' }, { _tag: 'InvoiceNotPayable', status: 'SENT', type: 'PROFORMA' }],
  InvoiceHasPayments: [{ _tag: 'InvoiceHasPayments', amountPaid: kobo(100) }],
  InvoiceWrongState: [{ _tag: 'InvoiceWrongState', status: 'DRAFT', type: 'PROFORMA', wanted: 'a sent proforma' }],
  AmountExceedsBalance: [{ _tag: 'AmountExceedsBalance', balance: kobo(100), amount: kobo(200) }],
  VatNotRegistered: [{ _tag: 'VatNotRegistered' }],
  InvoiceAmountsInvalid: [{ _tag: 'InvoiceAmountsInvalid', field: 'lines.0.discount', message: 'must not be more than quantity x unit_price' }],
  UnknownInvoiceProduct: [{ _tag: 'UnknownInvoiceProduct', indexes: [0] }],
  UnknownInvoiceCustomer: [{ _tag: 'UnknownInvoiceCustomer', customerId: 'x' }],
  InvoiceNotShareable: [{ _tag: 'InvoiceNotShareable', status: 'DRAFT' }],
  CustomerHasNoContact: [{ _tag: 'CustomerHasNoContact', channel: 'SMS' }, { _tag: 'CustomerHasNoContact', channel: 'EMAIL' }],
};
/** Failures that are not the caller's fault: a dependency this deployment lacks or cannot reach (503, ADR 0027). */
const UNAVAILABLE: readonly FailureTag[] = ['GoogleSignInNotConfigured', 'GoogleUnavailable', 'PaymentGatewayUnavailable'];
const SUBJECTS: readonly Subject[] = ['sale', 'return', 'receipt', 'customer', 'product', 'stock adjustment', 'staff member', 'business', 'branch', 'session', 'sign-in', 'signed-in user', 'expense', 'expense category', 'loan pack', 'api key', 'partner network', 'merchant', 'partner', 'webhook', 'webhook delivery'];

/** The folded table's answer to a failure (bootstrap/failures.ts). */
const failureProblem = (f: UseCaseFailure, subject: Subject) => problemOf(FAILURES, f, subject);

const produced = () => {
  const codes = new Set<ErrorCode>();
  for (const failures of Object.values(EXAMPLES) as UseCaseFailure[][]) {
    for (const f of failures) for (const s of SUBJECTS) codes.add(failureProblem(f, s).code);
  }
  return codes;
};

describe('HTTP failure mapping (adapters/http/failures.ts)', () => {
  it('every error code of the table is produced by a failure, or by the edge, or is reserved for a feature not built yet', () => {
    const answered = new Set<ErrorCode>([...produced(), ...EDGE_ONLY, ...RESERVED]);
    const unreachable = (Object.keys(ERROR_CODES) as ErrorCode[]).filter((c) => !answered.has(c));
    expect(unreachable, 'codes nothing can answer').to.deep.equal([]);
  });

  it('the edge-only codes are really edge-only: no failure maps to one, and the edge source names each', () => {
    const codes = produced();
    expect(EDGE_ONLY.filter((c) => codes.has(c))).to.deep.equal([]);
    const dir = new URL('../../adapters/http/', import.meta.url);
    const edgeFiles = readdirSync(dir).filter((f) => f.endsWith('.ts') && f !== 'failures.ts' && f !== 'problem.ts');
    const edge = edgeFiles.map((f) => readFileSync(new URL(f, dir), 'utf8')).join('\n');
    const compose = readFileSync(new URL('../../bootstrap/compose.ts', import.meta.url), 'utf8');
    for (const c of EDGE_ONLY) expect(`${edge}\n${compose}`, c).to.include(`'${c}'`);
  });

  it('every failure maps to a 4xx of its table status (a 503 for the unavailable ones), with its field errors spelled as the request spells them', () => {
    for (const failures of Object.values(EXAMPLES) as UseCaseFailure[][]) {
      for (const f of failures) {
        const p = failureProblem(f, 'sale');
        if (UNAVAILABLE.includes(f._tag)) expect(p.status, f._tag).to.equal(ERROR_CODES[p.code]).and.to.equal(503);
        else expect(p.status, f._tag).to.equal(ERROR_CODES[p.code]).and.to.be.within(400, 499);
        for (const e of p.extra.errors ?? []) expect(e.field, f._tag).to.not.match(/[A-Z]/);
      }
    }
    expect(failureProblem({ _tag: 'NegativeAmount', fields: ['amountPaid', 'items.0.discount'] }, 'sale')).to.include({
      code: 'AMOUNT_MUST_NOT_BE_NEGATIVE',
      detail: 'Amounts must not be negative: amount_paid, items.0.discount.',
    });
    expect(failureProblem({ _tag: 'NegativeAmount', fields: ['creditLimit'] }, 'customer').detail).to.equal('credit_limit must not be negative.');
  });

  it("each failure's definition lists exactly the codes it is answered with, in every variant and subject (docs/adr/0051, 0062)", () => {
    const wrong: string[] = [];
    for (const [tag, failures] of Object.entries(EXAMPLES) as [FailureTag, UseCaseFailure[]][]) {
      const answered = new Set<ErrorCode>();
      for (const f of failures) for (const s of SUBJECTS) answered.add(failureProblem(f, s).code);
      const listed = new Set<ErrorCode>(FAILURES.definitions[tag]!.codes);
      if ([...answered].some((c) => !listed.has(c)) || [...listed].some((c) => !answered.has(c))) {
        wrong.push(`${tag}: answers ${[...answered].sort().join(',')}, its definition lists ${[...listed].sort().join(',')}`);
      }
    }
    expect(wrong).to.deep.equal([]);
  });

  it('no route file maps a failure itself: the routes hand every failure to this module', () => {
    const dir = new URL('../../adapters/http/routes/', import.meta.url);
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
      expect(readFileSync(new URL(file, dir), 'utf8'), file).to.not.match(/_tag|E\.isLeft/);
    }
  });
});
