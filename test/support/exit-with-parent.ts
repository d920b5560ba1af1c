/**
 * Loaded first (`--import`) into the server processes tests start (test/support/server-process.ts):
 * when the test run that started it dies, even by SIGKILL, this process ends too instead of
 * listening on for hours (its parent changes when it is orphaned).
 */
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.exit(1);
}, 500).unref();
