// mocha's settings for `npm test` (docs/adr/0048): test files run in parallel worker processes, one
// per core and one more, to use the time the process tests wait (docs/adr/0079; MOCHA_JOBS overrides), each worker with a database of its own
// (test/support/database.ts). `--no-config` runs one file alone, as the README says.
const { availableParallelism } = require('node:os');

module.exports = {
  'node-option': ['import=tsx'],
  spec: ['test/**/*.test.ts'],
  require: ['test/support/hooks.ts'],
  timeout: 30000,
  reporter: 'spec',
  exit: true,
  parallel: true,
  jobs: Number(process.env.MOCHA_JOBS) || availableParallelism() + 1,
};
