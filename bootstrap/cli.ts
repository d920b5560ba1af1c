import { DataDirectoryInUse } from '../adapters/persistence/mikro-orm/embedded-postgres.js';
import { loadConfig } from './config.js';
import { openPostgres } from './persistence.js';

/** Operator commands: `npm run cli -- <command>`. Same configuration as the server. */
const USAGE = `usage: npm run cli -- <command>
  migrate      apply pending database migrations (the server also does this at start)`;

const main = async (args: string[]) => {
  const [command] = args;
  if (command !== 'migrate') {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig();
  try {
    const persistence = await openPostgres({
      databaseUrl: config.DATABASE_URL,
      dataDir: config.DATA_DIR,
      poolMax: 2,
      log: (message) => console.log(message),
    });
    await persistence.close();
    console.log(`migrations applied (${persistence.embedded ? `embedded database in ${config.DATA_DIR}` : 'PostgreSQL'})`);
    return 0;
  } catch (e) {
    if (e instanceof DataDirectoryInUse) {
      console.error(e.message);
      return 3;
    }
    throw e;
  }
};

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  },
);
