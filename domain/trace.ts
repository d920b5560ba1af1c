/**
 * W3C Trace Context (https://www.w3.org/TR/trace-context/): the `traceparent` header, as
 * `version-traceid-parentid-flags`. What a request carries in is parsed here; what travels on (to the
 * outbox, the jobs and partner webhooks) is the traceparent of this service's span: the caller's trace
 * id and flags, a parent id of our own (docs/adr/0066).
 */
export interface TraceParent {
  /** 32 lowercase hex digits, not all zero. */
  readonly traceId: string;
  /** 16 lowercase hex digits, not all zero: the span that made the call. */
  readonly parentId: string;
  /** 2 hex digits; bit 0 is `sampled`. */
  readonly flags: string;
}

const HEX_FIELDS = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/**
 * The header's fields, or undefined when it is invalid (then it is ignored, as the specification says):
 * uppercase hex, a wrong length, version ff, an all-zero trace or parent id, or, for version 00,
 * anything after the flags. A later version may carry more fields after a dash.
 */
export const parseTraceparent = (header: string | undefined): TraceParent | undefined => {
  if (!header || header.length > 512) return undefined;
  const m = HEX_FIELDS.exec(header.trim());
  if (!m) return undefined;
  const [, version, traceId, parentId, flags, rest] = m as unknown as [string, string, string, string, string, string | undefined];
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (/^0+$/.test(traceId) || /^0+$/.test(parentId)) return undefined;
  return { traceId, parentId, flags };
};

/** The header for a span of ours (`spanId`, 16 hex digits) in the caller's trace. */
export const traceparentOf = (trace: Pick<TraceParent, 'traceId' | 'flags'>, spanId: string): string => `00-${trace.traceId}-${spanId}-${trace.flags}`;

/** The trace id of a traceparent this service wrote (for log lines), or undefined when it is not one. */
export const traceIdOf = (traceparent: string | null | undefined): string | undefined => parseTraceparent(traceparent ?? undefined)?.traceId;
