import { loadConfig } from '../../bootstrap/config.js';

/** The message of the configuration `env` is refused with; fails when it is accepted. */
export const configError = (env: Record<string, string>): string => {
  try {
    loadConfig(env);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected loadConfig to refuse the configuration');
};
