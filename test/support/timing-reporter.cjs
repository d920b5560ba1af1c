// The spec reporter, plus one line per finished test appended to TIMINGS_FILE when it is set:
// "<pass|fail>\t<epoch ms>\t<duration ms>\t<file>\t<full title>", to find where a run's time goes
// (e.g. awk -F'\t' '{s[$4]+=$3} END {for (f in s) print s[f], f}' FILE | sort -rn | head). docs/adr/0048
const Mocha = require('mocha');
const fs = require('node:fs');

const { EVENT_TEST_PASS, EVENT_TEST_FAIL } = Mocha.Runner.constants;

class TimingReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const out = process.env.TIMINGS_FILE;
    if (!out) return;
    const write = (status) => (test) => fs.appendFileSync(out, `${status}\t${Date.now()}\t${test.duration ?? 0}\t${test.file ?? '?'}\t${test.fullTitle()}\n`);
    runner.on(EVENT_TEST_PASS, write('pass'));
    runner.on(EVENT_TEST_FAIL, write('fail'));
  }
}

module.exports = TimingReporter;
