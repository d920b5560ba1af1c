import type { Readable } from 'node:stream';
import type * as t from 'io-ts';
import type { ParameterizedContext } from 'koa';
import type { PartnerActor, PartnerScope } from '../../domain/partner.js';
import type { Actor, Role } from '../../domain/roles.js';
import type { JsonSchema } from './codecs.js';
import type { Failures } from './failure-codes.js';
import type { ErrorCode } from './problem.js';

/** What a handler answers on success; failures are thrown as Problem. */
export interface Reply {
  /** 303: See Other, to the `Location` header (a plain HTML form's POST sends the browser on). */
  readonly status: 200 | 201 | 202 | 303 | 503;
  readonly message: string;
  readonly data: unknown;
  readonly headers?: Record<string, string>;
  /**
   * Instead of the JSON envelope: this body with this Content-Type, one of the route's
   * `success.alternatives` (the one `HandlerInput.mediaType` names).
   */
  readonly file?: { readonly contentType: string; readonly body: Buffer | string | Readable };
}

export const ok = (message: string, data: unknown): Reply => ({ status: 200, message, data });
export const created = (message: string, data: unknown): Reply => ({ status: 201, message, data });
/** Taken on, to be done after the answer (a message queued for sending). */
export const accepted = (message: string, data: unknown): Reply => ({ status: 202, message, data });
/** A 200 answered as a file in another media type than JSON (see `success.alternatives`). */
export const okFile = (message: string, file: { contentType: string; body: Buffer | string }, headers?: Record<string, string>): Reply => ({
  status: 200,
  message,
  data: null,
  file,
  ...(headers ? { headers } : {}),
});

/**
 * The path parameters of a Koa path literal: `/sales/:id/void` gives `{ id: string }`, a path without
 * any gives `{}`; a path known only as `string` gives every name, possibly absent.
 */
export type PathParams<P extends string> = string extends P ? Record<string, string> : ParamsOf<P>;
type ParamsOf<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? { readonly [K in Name]: string } & ParamsOf<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? { readonly [K in Name]: string }
    : {}; // eslint-disable-line @typescript-eslint/no-empty-object-type

type MemberAccess = { readonly roles: readonly Role[] };
type PartnerAccess = { readonly partnerScope: PartnerScope };
/** What the runner has authenticated for a route of access `A` (route-runner.ts): a member on a role-gated route, a partner on a partner route, nobody on a public one. */
export type ActorOf<A extends Access> = A extends MemberAccess ? Actor : A extends 'public' | PartnerAccess ? undefined : never;
export type PartnerOf<A extends Access> = A extends PartnerAccess ? PartnerActor : A extends 'public' | MemberAccess ? undefined : never;
export type SessionOf<A extends Access> = A extends MemberAccess ? string : A extends 'public' | PartnerAccess ? undefined : never;

/**
 * What a handler gets. `A` (the route's access) and `P` (its path) type the actor, the partner, the
 * session and the path parameters exactly (docs/adr/0051); left out, they are the loose union.
 */
export interface HandlerInput<B, Q = unknown, A extends Access = Access, P extends string = string> {
  readonly body: B;
  readonly query: Q;
  /** The signed-in member: always there on a role-gated route, never on a public or partner route. */
  readonly actor: ActorOf<A>;
  /** The partner of a partner route (X-API-Key), with its key's scopes. */
  readonly partner: PartnerOf<A>;
  /** The session (sign-in) of the access token, on routes that need one. */
  readonly sessionId: SessionOf<A>;
  readonly params: PathParams<P>;
  /**
   * The media type the success is to be answered in, chosen from the Accept header: `application/json`
   * (the envelope; also when Accept names nothing the route offers) or one of `success.alternatives`.
   */
  readonly mediaType: string;
  readonly ctx: ParameterizedContext;
  /** Set when the route runs as an operation of POST /sync/batch: the till that queued it offline (docs/adr/0034). */
  readonly sync?: { readonly deviceId: string };
}

/** Which rate limits a route counts against: identifier = per IP and per phone/e-mail from that IP; ip; user; partner (per API key); none. */
export type RateLimitKey = 'identifier' | 'ip' | 'user' | 'partner' | 'none';

/**
 * Who may call a route: `public`; the roles allowed with a bearer token (a merchant's user); or a
 * partner's API key (X-API-Key) holding `scope` (docs/adr/0033). The two credentials never mix.
 */
export type Access = 'public' | { readonly roles: readonly Role[] } | { readonly partnerScope: PartnerScope };

/**
 * One row of the route table: the router and the OpenAPI document are both built from it,
 * so they cannot disagree.
 */
export interface RouteDef<B = unknown, Q = unknown, A extends Access = Access, P extends string = string> {
  readonly method: 'get' | 'post' | 'put' | 'delete';
  /** Koa path under /api/v1, e.g. `/auth/register` or `/staff/:id`. */
  readonly path: P;
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  readonly tag: string;
  readonly access: A;
  readonly body?: t.Type<B, unknown, unknown>;
  /** A valid request body for the document ("Try it out"). */
  readonly bodyExample?: unknown;
  /**
   * A body the handler reads itself from `ctx.req` (an upload) instead of a JSON `body`: its media
   * types with their schemas (for the document); any other media type is 415, no body at all 400.
   */
  readonly rawBody?: {
    readonly description: string;
    readonly content: Readonly<Record<string, JsonSchema>>;
    /** The largest body the route takes, in bytes: an upload under an Idempotency-Key is read ahead up to it (413 beyond). 1 MB if left out. */
    readonly maxBytes?: number;
  };
  /** Path parameters that are not UUIDs (the default), with the pattern they must match. */
  readonly pathParams?: Record<string, { readonly pattern: RegExp; readonly description: string }>;
  /** Query string codec; unknown parameters are refused. */
  readonly query?: t.Type<Q, unknown, unknown>;
  readonly success: {
    readonly status: 200 | 201 | 202 | 303;
    readonly description: string;
    readonly data: t.Mixed;
    /**
     * A download rather than the JSON envelope: the reply's `data` (a stream or a string) is the body,
     * sent with this Content-Type; `data` above then describes that body. Errors stay Problem Details.
     */
    readonly contentType?: string;
    /**
     * Other media types the success can be answered in besides the JSON envelope, media type to
     * description (for the document), chosen by the request's Accept header; the handler answers the
     * chosen one (`HandlerInput.mediaType`) with `okFile`. With `contentType` (a download), the other file
     * types the handler may answer instead (chosen by a query parameter, e.g. the report exports' format).
     * Errors stay Problem Details JSON. A description alone documents a file (`format: binary`); with `data`,
     * the body is that schema (e.g. the loan pack's canonical JSON), so a generated client types it.
     */
    readonly alternatives?: Readonly<Record<string, string | { readonly description: string; readonly data: t.Mixed }>>;
    /** Response headers of the success, name to description (for the document). */
    readonly headers?: Readonly<Record<string, string>>;
  };
  /**
   * The failures of the use case(s) the handler answers through `successOf`, checked against their
   * failure union (`failuresOf`, failure-codes.ts): the document's codes for them are derived from it.
   */
  readonly failures?: Failures;
  /** Business errors this route answers besides its `failures`' codes and those every route of its kind can answer. */
  readonly errors: readonly ErrorCode[];
  readonly rateLimit: RateLimitKey;
  /**
   * Honours the Idempotency-Key header (API-DECISIONS "Idempotency", docs/adr/0045): set on every POST
   * that creates something or moves money. The runner, the document (the header, `Idempotent-Replayed`,
   * IDEMPOTENCY_IN_PROGRESS and IDEMPOTENCY_KEY_REUSED) and test/http/idempotency-everywhere follow it.
   */
  readonly idempotent?: boolean;
  /** Extra response (e.g. the health check's 503). */
  readonly alsoAnswers?: { readonly status: 503; readonly description: string };
  // A method, so that the table (RouteDef<any, any>[]) holds routes of any access and path.
  handler(input: HandlerInput<B, Q, A, P>): Promise<Reply>;
}

/** One route; its access and path literal type the handler's actor and params. */
export const route = <B = undefined, Q = undefined, const A extends Access = Access, const P extends string = string>(def: RouteDef<B, Q, A, P>): RouteDef<B, Q, A, P> => def;

export const OWNER_AND_STAFF: readonly Role[] = ['BUSINESS_OWNER', 'STAFF'];
export const OWNER_ONLY: readonly Role[] = ['BUSINESS_OWNER'];
