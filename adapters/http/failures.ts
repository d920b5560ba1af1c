import * as E from 'fp-ts/lib/Either.js';
import type { NotFound, UnknownBranch } from '../../application/business/errors.js';
import type { FeatureNotAvailable, PlanGate } from '../../domain/plan.js';
import type { AmountNotPositive, NegativeAmount, NegativePrice, QuantityNotPositive, ZeroQuantityChange } from '../../domain/amount-rules.js';
import { failure, moduleFailures, UseCaseFailed, type Tagged } from './failure-codes.js';
import { PARTNER_NOT_FOUND } from './failures/partners.js';
import type { Subject } from './subject.js';
import { CORE_ERROR_CODES, problem, type CoreCode } from './problem.js';

// The failures every module shares, answered the same everywhere (docs/adr/0062). A module's own
// failures and error codes are in adapters/http/failures/<module>.ts, named by its manifest;
// bootstrap/failures.ts folds them with these into the one table the app answers with.

export type { Subject } from './subject.js';

/** The command's field as the JSON request spells it: `items.0.unitPrice` is `items.0.unit_price`. */
const wire = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Fields that broke one rule: listed in the detail and each named in `errors`. */
const fieldsBroken = <C extends CoreCode>(code: C, fields: readonly string[], message: string, detail: (list: string) => string) => {
  const names = fields.map(wire);
  return problem(code, detail(names.join(', ')), { errors: names.map((field) => ({ field, message })) });
};

/** A sale lists every negative field under one heading; a single field elsewhere is named alone. */
export const negative = <C extends 'NEGATIVE_PRICE' | 'AMOUNT_MUST_NOT_BE_NEGATIVE'>(code: C, fields: readonly string[], subject: Subject) =>
  fieldsBroken(code, fields, 'must not be negative', (list) =>
    subject === 'sale' ? `${code === 'NEGATIVE_PRICE' ? 'Prices' : 'Amounts'} must not be negative: ${list}.` : `${list} must not be negative.`,
  );

export const NOT_FOUND: Record<Subject, string> = {
  sale: 'No such sale.',
  return: 'No such return.',
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
  invoice: 'No such invoice.',
  ...PARTNER_NOT_FOUND,
};


/** The failures every module may answer: not found, the amount rules, an unknown branch, the plan's gates. */
export type CoreFailure = NotFound | NegativePrice | NegativeAmount | AmountNotPositive | QuantityNotPositive | ZeroQuantityChange | UnknownBranch | PlanGate | FeatureNotAvailable;

export const CORE_FAILURES = moduleFailures<CoreFailure>()(CORE_ERROR_CODES, {
  NotFound: failure(['RESOURCE_NOT_FOUND'], (_, subject) => problem('RESOURCE_NOT_FOUND', NOT_FOUND[subject])),
  NegativePrice: failure(['NEGATIVE_PRICE'], (f, subject) => negative('NEGATIVE_PRICE', f.fields, subject)),
  NegativeAmount: failure(['AMOUNT_MUST_NOT_BE_NEGATIVE'], (f, subject) => negative('AMOUNT_MUST_NOT_BE_NEGATIVE', f.fields, subject)),
  AmountNotPositive: failure(['AMOUNT_MUST_BE_POSITIVE'], (f) =>
    fieldsBroken('AMOUNT_MUST_BE_POSITIVE', [f.field], 'must be more than zero', (list) => `${list} must be more than zero.`),
  ),
  // The request codecs refuse these first (400, ADR 0013); a program embedding the use cases meets them.
  QuantityNotPositive: failure(['VALIDATION_FAILED'], (f) =>
    fieldsBroken('VALIDATION_FAILED', f.fields, 'must be a whole number of at least 1', (list) => `The request is invalid: ${list} must be whole numbers of at least 1.`),
  ),
  ZeroQuantityChange: failure(['VALIDATION_FAILED'], (f) =>
    fieldsBroken('VALIDATION_FAILED', [f.field], 'must be a whole number other than zero', (list) => `The request is invalid: ${list} must be a whole number other than zero.`),
  ),
  UnknownBranch: failure(['UNKNOWN_BRANCH'], (f) => {
    const field = f.field ?? 'branch_id';
    return problem('UNKNOWN_BRANCH', `${field} does not name a branch of this business.`, { errors: [{ field, message: 'is not a branch of this business' }] });
  }),
  PlanLimitExceeded: failure(['PLAN_LIMIT_EXCEEDED'], (f) =>
    problem('PLAN_LIMIT_EXCEEDED', `The ${f.plan} plan records at most ${f.limit} sales a month; upgrade to record more.`, {
      headers: { 'Plan-Sales-Limit': String(f.limit), 'Plan-Sales-Remaining': '0' },
    }),
  ),
  FeatureNotAvailable: failure(['FEATURE_NOT_AVAILABLE'], (f) =>
    problem('FEATURE_NOT_AVAILABLE', `This report is not part of the ${f.plan} plan; it comes with the ${f.plans.join(' and ')} plans.`),
  ),
});

/**
 * A use case's success, or its failure thrown to be answered as the Problem Details its definition
 * gives (the served route table turns it into one, bootstrap/failures.ts).
 */
export const successOf = <A>(result: E.Either<Tagged, A>, subject: Subject): A => {
  if (E.isLeft(result)) throw new UseCaseFailed(result.left, subject);
  return result.right;
};
