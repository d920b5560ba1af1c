import type { InvalidReportRange } from '../../../domain/report.js';
import { failure, moduleFailures } from '../failure-codes.js';
import { errorCodes } from '../problem.js';

const { codes, problem } = errorCodes({});

/** The failures of the reports (a plan's missing report is the core's FeatureNotAvailable). */
export const REPORT_FAILURES = moduleFailures<InvalidReportRange>()(codes, {
  InvalidReportRange: failure(['VALIDATION_FAILED'], (f) =>
    problem('VALIDATION_FAILED', `The query is invalid: ${f.field} ${f.reason}.`, { errors: [{ field: f.field, message: f.reason }] }),
  ),
});
