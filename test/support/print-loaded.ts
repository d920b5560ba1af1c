import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/**
 * `node --import tsx --import ./test/support/record-loads.mjs test/support/print-loaded.ts FILE…`:
 * imports each file and prints, as JSON, the CommonJS modules then loaded (`require.cache`); the ES
 * module loader's resolutions are in the RECORD_LOADS file.
 */
for (const file of process.argv.slice(2)) await import(pathToFileURL(file).href);
process.stdout.write(JSON.stringify(Object.keys(createRequire(import.meta.url).cache)));
