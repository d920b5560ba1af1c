import { doc, shape } from '../codecs.js';
import { route, type Reply } from '../route.js';

export interface HealthDeps {
  /** Pings the database with a deadline. */
  readonly pingDatabase: () => Promise<{ up: boolean; ms: number; error?: string; busy?: boolean }>;
  /** OTP test mode is on (a fixed sign-in code for listed identifiers): said in every health answer. */
  readonly otpTestMode: boolean;
}

const status = doc('UP or DOWN', { type: 'string', enum: ['UP', 'DOWN'] });

export const healthRoutes = (deps: HealthDeps) => [
  route({
    method: 'get',
    path: '/actuator/health',
    operationId: 'health',
    tag: 'Health',
    summary: 'Service health',
    description:
      'Public. UP when the database answers `select 1` within 2 s; on the embedded database a ping queued behind other work is UP with `busy: true` (it runs one statement at a time); otherwise 503 with status DOWN. Never hangs.',
    access: 'public',
    rateLimit: 'none',
    success: {
      status: 200,
      description: 'Service is UP',
      data: shape('Health', {
        status,
        otp_test_mode: doc('boolean', { type: 'boolean', description: 'true on a server in OTP test mode: listed identifiers sign in with 000000' }),
        components: shape('HealthComponents', {
          db: doc('DbHealth', { type: 'object', properties: { status: { type: 'string', enum: ['UP', 'DOWN'] }, latency_ms: { type: 'integer', minimum: 0 }, busy: { type: 'boolean', description: 'the embedded database is working for others; this ping waited its turn' }, error: { type: 'string' } }, required: ['status', 'latency_ms'] }),
        }),
      }),
    },
    alsoAnswers: { status: 503, description: 'Service is DOWN: the database did not answer (error.code DATABASE_UNAVAILABLE, data as for 200)' },
    errors: [],
    handler: async (): Promise<Reply> => {
      const db = await deps.pingDatabase();
      const data = {
        status: db.up ? 'UP' : 'DOWN',
        components: { db: { status: db.up ? 'UP' : 'DOWN', latency_ms: db.ms, ...(db.busy ? { busy: true } : {}), ...(db.error ? { error: 'database did not answer' } : {}) } },
        otp_test_mode: deps.otpTestMode,
      };
      return db.up ? { status: 200, message: 'Service is UP', data } : { status: 503, message: 'Service is DOWN', data };
    },
  }),
];
