import { healthRoutes } from '../../adapters/http/routes/health.routes.js';
import { inMemoryHousekeepingModule } from '../../adapters/persistence/in-memory/housekeeping.in-memory.js';
import { sqlHousekeepingModule } from '../../adapters/persistence/sql/housekeeping.sql.js';
import { defineModule, repositories } from './module.js';

const HEALTH_TIMEOUT_MS = 2000;

/**
 * The operator's module: GET /health (the database's ping, whether OTP test mode is on), and the
 * housekeeping repositories that retention (a periodic task, bootstrap/jobs.ts) and the metrics'
 * gauges (bootstrap/metrics.ts) read (docs/adr/0065, 0068).
 */
export const healthModule = defineModule({
  name: 'health',
  folders: ['housekeeping'],
  repositories: [repositories(inMemoryHousekeepingModule, sqlHousekeepingModule)],
  failures: [],
  migrations: [],
  useCases: (ctx) => ({ pingDatabase: () => ctx.persistence.ping(HEALTH_TIMEOUT_MS), otpTestMode: ctx.testSignIn !== undefined }),
  routes: (uc) => healthRoutes(uc),
});
