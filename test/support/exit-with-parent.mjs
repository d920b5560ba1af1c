/**
 * Loaded first (`--import`) into the processes tests start (test/support/server-process.ts): when
 * the test process that started it dies, even by SIGKILL, this process ends too instead of
 * listening on for hours. TEST_PARENT_PID names that parent (it may die before this runs); an
 * orphan's parent changes.
 */
const parent = Number(process.env.TEST_PARENT_PID) || process.ppid;
const check = () => {
  if (process.ppid !== parent) process.exit(1);
};
check();
setInterval(check, 500).unref();
