import pino, { type Logger } from 'pino';
import type { Config } from './config.js';
import { traceLogMixin } from '../adapters/tracing/trace-context.js';

/** pino JSON lines on stdout; pretty only when LOG_PRETTY is set. Secrets are redacted by key. */
export const createLogger = (config: Pick<Config, 'LOG_LEVEL' | 'LOG_PRETTY'>): Logger =>
  pino({
    level: config.LOG_LEVEL,
    base: { service: 'bizops-api' },
    timestamp: pino.stdTimeFunctions.isoTime,
    // a line written in traced work (a request with a traceparent, a job or delivery it caused) says its trace_id (docs/adr/0066)
    mixin: traceLogMixin,
    redact: { paths: ['authorization', 'access_token', 'refresh_token', 'otp', '*.authorization', '*.access_token', '*.refresh_token', '*.otp'], censor: '[redacted]' },
    ...(config.LOG_PRETTY ? { transport: { target: 'pino-pretty', options: { colorize: true } } } : {}),
  });
