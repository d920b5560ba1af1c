// Per-file wall time: writes "<ms>\t<file>" lines (appended progressively) to TIMINGS_FILE.
const Mocha = require('mocha');
const fs = require('node:fs');
const { EVENT_SUITE_BEGIN, EVENT_SUITE_END, EVENT_TEST_PASS, EVENT_TEST_FAIL, EVENT_TEST_PENDING } = Mocha.Runner.constants;
class Timing extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const out = process.env.TIMINGS_FILE;
    const starts = new Map();
    const counts = new Map();
    const bump = (t, k) => { const f = t.file || '?'; const c = counts.get(f) || { pass: 0, fail: 0, pending: 0 }; c[k]++; counts.set(f, c); };
    runner.on(EVENT_TEST_PASS, (t) => bump(t, 'pass'));
    runner.on(EVENT_TEST_FAIL, (t) => bump(t, 'fail'));
    runner.on(EVENT_TEST_PENDING, (t) => bump(t, 'pending'));
    runner.on(EVENT_TEST_PASS, (t) => out && fs.appendFileSync(out, `test\t${Date.now()}\t${t.duration}\t${t.file}\t${t.fullTitle()}\n`));
    runner.on(EVENT_TEST_FAIL, (t) => out && fs.appendFileSync(out, `FAIL\t${Date.now()}\t${t.duration}\t${t.file}\t${t.fullTitle()}\n`));
  }
}
module.exports = Timing;
