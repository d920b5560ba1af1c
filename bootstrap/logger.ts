import pino, { type Logger } from 'pino';
import type { Config } from './config.js';

/** pino JSON lines on stdout; pretty only when LOG_PRETTY is set. Secrets are redacted by key. */
export const createLogger = (config: Pick<Config, 'LOG_LEVEL' | 'LOG_PRETTY'>): Logger =>
  pino({
    level: config.LOG_LEVEL,
    base: { service: 'bizops-api' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['authorization', 'access_token', 'refresh_token', 'otp', '*.authorization', '*.access_token', '*.refresh_token', '*.otp'], censor: '[redacted]' },
    ...(config.LOG_PRETTY ? { transport: { target: 'pino-pretty', options: { colorize: true } } } : {}),
  });
