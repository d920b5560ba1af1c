import type { ParameterizedContext } from 'koa';
import type { endSession, listSessions, logout } from '../../../application/auth/manage-sessions.js';
import { type Session, SESSION_SORTS, type SessionDevice } from '../../../application/auth/ports.js';
import { bool, dateTime, doc, jsonSchemaOf, nullableStr, object, opaqueToken, shape, uuid } from '../codecs.js';
import { dateTimeJson } from '../json-values.js';
import { listQuery, pageSchema, type Paging } from '../paging.js';
import { successOf } from '../failures.js';
import { ok, OWNER_AND_STAFF, route } from '../route.js';
import { failuresOf, type FailureOf } from '../failure-codes.js';

export interface SessionUseCases {
  readonly logout: ReturnType<typeof logout>;
  readonly listSessions: ReturnType<typeof listSessions>;
  readonly endSession: ReturnType<typeof endSession>;
  readonly paging: Paging;
}

/** The device a sign-in or refresh comes from: its User-Agent and IP (X-Forwarded-For only with TRUST_PROXY). */
export const deviceOf = (ctx: ParameterizedContext): SessionDevice => ({
  userAgent: ctx.get('user-agent') || null,
  ip: ctx.ip ? ctx.ip.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '') : null,
});

const sessionJson = (s: Session, currentId: string | undefined) => ({
  id: s.id,
  created_at: dateTimeJson(s.createdAt),
  last_used_at: dateTimeJson(s.lastUsedAt),
  expires_at: dateTimeJson(s.expiresAt),
  user_agent: s.userAgent,
  ip: s.ip,
  current: s.id === currentId,
});

const sessionShape = shape(
  'Session',
  { id: uuid, created_at: dateTime, last_used_at: dateTime, expires_at: dateTime, user_agent: nullableStr, ip: nullableStr, current: bool },
  {
    id: 'the session id: the `sid` claim of its access tokens',
    created_at: 'the sign-in',
    last_used_at: 'the sign-in or the latest token refresh (clients refresh about hourly while in use)',
    expires_at: 'when its refresh token expires unless refreshed before',
    user_agent: 'User-Agent of the sign-in or latest refresh',
    ip: 'client IP of the sign-in or latest refresh',
    current: 'true for the session of the access token that made this request',
  },
);

const TAG = 'Auth';

export const sessionRoutes = (uc: SessionUseCases) => [
  route({
    method: 'post',
    path: '/auth/logout',
    operationId: 'logout',
    tag: TAG,
    summary: 'Sign out: end the refresh token’s session',
    description:
      'Anyone holding a refresh token may call it; no access token is needed (the refresh token is the credential, as in ' +
      'OAuth token revocation, so a device whose access token expired can still sign out). Ends the session the token ' +
      'belongs to: its refresh tokens stop working, and its access tokens are refused with 401 SESSION_REVOKED from their ' +
      'next request. Other devices stay signed in. Signing out an already signed-out, spent or expired token of the ' +
      'session answers 200 again; a string that was never a refresh token is 401 REFRESH_TOKEN_INVALID.',
    access: 'public',
    rateLimit: 'ip',
    body: object('LogoutRequest', { refresh_token: opaqueToken }),
    bodyExample: { refresh_token: 'kq3G3w9dM1m1Qy0bJ7i4c8cXWZ3Fk2x0m3sYk5y6pQ4' },
    success: { status: 200, description: 'Signed out', data: shape('LoggedOut', { session_id: uuid }, { session_id: 'the session that was ended' }) },
    failures: failuresOf<FailureOf<typeof uc.logout>>({ RefreshTokenInvalid: true }),
    errors: [],
    handler: async ({ body }) => {
      return ok('Signed out', { session_id: successOf(await uc.logout(body.refresh_token), 'session').sessionId });
    },
  }),
  route({
    method: 'get',
    path: '/auth/sessions',
    operationId: 'listSessions',
    tag: TAG,
    summary: 'The caller’s signed-in devices',
    description:
      'Any signed-in member (owner or staff), for their own sessions only: one per sign-in that is not signed out or ' +
      'expired, `current: true` on the one making this request. Paged (keyset), newest use first by default; ' +
      'search: user agent, IP; start_date/end_date: the sign-in time.',
    access: { roles: OWNER_AND_STAFF },
    rateLimit: 'user',
    query: listQuery('SessionListQuery', SESSION_SORTS, {}, 'last_used_at'),
    success: { status: 200, description: 'A page of sessions', data: doc('SessionPage', pageSchema(jsonSchemaOf(sessionShape))) },
    errors: [],
    handler: async ({ actor, sessionId, query }) => {
      const req = uc.paging.request('listSessions', query, 'last_used_at');
      const page = await uc.listSessions(actor, req);
      return ok('Sessions', uc.paging.render('listSessions', query, req, page, (s) => sessionJson(s, sessionId)));
    },
  }),
  route({
    method: 'delete',
    path: '/auth/sessions/:id',
    operationId: 'deleteSession',
    tag: TAG,
    summary: 'Sign out one of the caller’s devices',
    description:
      'Any signed-in member (owner or staff), for their own sessions only: someone else’s session, or one already ' +
      'signed out or expired, is 404. Its refresh tokens stop working and its access tokens are refused with ' +
      '401 SESSION_REVOKED from their next request; naming the current session signs this device out.',
    access: { roles: OWNER_AND_STAFF },
    rateLimit: 'user',
    success: {
      status: 200,
      description: 'The session was ended',
      data: shape('EndedSession', { id: uuid, current: bool }, { current: 'true when it was the session of this request’s access token' }),
    },
    failures: failuresOf<FailureOf<typeof uc.endSession>>({ SessionNotFound: true }),
    errors: [],
    handler: async ({ actor, sessionId, params }) => {
      const id = params.id.toLowerCase();
      successOf(await uc.endSession(actor, id), 'session');
      return ok('Session ended', { id, current: id === sessionId });
    },
  }),
];
