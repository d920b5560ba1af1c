import { healthRoutes } from '../../adapters/http/routes/health.routes.js';
import { defineModule } from './module.js';

const HEALTH_TIMEOUT_MS = 2000;

/** GET /health: the database's ping and whether OTP test mode is on. */
export const healthModule = defineModule({
  name: 'health',
  folders: [],
  repositories: [],
  failures: [],
  migrations: [],
  useCases: (ctx) => ({ pingDatabase: () => ctx.persistence.ping(HEALTH_TIMEOUT_MS), otpTestMode: ctx.testSignIn !== undefined }),
  routes: (uc) => healthRoutes(uc),
});
