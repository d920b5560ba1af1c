import { authRoutes } from '../../adapters/http/routes/auth.routes.js';
import { googleRoutes } from '../../adapters/http/routes/google.routes.js';
import { sessionRoutes } from '../../adapters/http/routes/sessions.routes.js';
import { checkVerificationCode } from '../../application/auth/check-verification-code.js';
import { getMe } from '../../application/auth/get-me.js';
import { linkGoogleIdentity, signInWithGoogle } from '../../application/auth/google-sign-in.js';
import { endSession, listSessions, logout } from '../../application/auth/manage-sessions.js';
import { refreshSession } from '../../application/auth/refresh-session.js';
import { register } from '../../application/auth/register.js';
import { requestSignInCode } from '../../application/auth/request-sign-in-code.js';
import { sendVerificationCode } from '../../application/auth/send-verification-code.js';
import { verifySignInCode } from '../../application/auth/verify-sign-in-code.js';
import { inMemoryAuthModule } from '../../adapters/persistence/in-memory/auth.in-memory.js';
import { sqlAuthModule } from '../../adapters/persistence/sql/auth.sql.js';
import { AUTH_FAILURES } from '../../adapters/http/failures/auth.js';
import { GOOGLE_FAILURES } from '../../adapters/http/failures/google.js';
import { defineModule, repositories } from './module.js';

/** Registration, sign-in codes, Google sign-in and sessions. */
export const authModule = defineModule({
  name: 'auth',
  folders: ['auth'],
  repositories: [repositories(inMemoryAuthModule, sqlAuthModule)],
  failures: [AUTH_FAILURES, GOOGLE_FAILURES],
  migrations: [
    { name: 'Migration20261125000000_sessions', load: async () => (await import('../../adapters/persistence/sql/migrations/Migration20261125000000_sessions.js')).Migration20261125000000_sessions },
    { name: 'Migration20261127100000_google_identity', load: async () => (await import('../../adapters/persistence/sql/migrations/Migration20261127100000_google_identity.js')).Migration20261127100000_google_identity },
    { name: 'Migration20261203004200_otp_requester', load: async () => (await import('../../adapters/persistence/sql/migrations/Migration20261203004200_otp_requester.js')).Migration20261203004200_otp_requester },
  ],
  useCases: ({ deps, paging }) => ({
    register: register(deps),
    requestSignInCode: requestSignInCode(deps),
    verifySignInCode: verifySignInCode(deps),
    refreshSession: refreshSession(deps),
    sendVerificationCode: sendVerificationCode(deps),
    checkVerificationCode: checkVerificationCode(deps),
    getMe: getMe(deps),
    signInWithGoogle: signInWithGoogle(deps),
    linkGoogleIdentity: linkGoogleIdentity(deps),
    logout: logout(deps),
    listSessions: listSessions(deps),
    endSession: endSession(deps),
    paging,
  }),
  routes: (uc) => [...authRoutes(uc), ...googleRoutes(uc), ...sessionRoutes(uc)],
});
