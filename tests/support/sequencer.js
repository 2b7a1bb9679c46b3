// Longest files first, so no worker is left running a 2-minute browser journey while the others idle
// at the end of the run. Jest's own order uses the durations of the last run on this checkout; a clean
// clone (CI) has none, and jest then sorts by file size, which puts a short unit file with many cases
// ahead of a browser journey. Here a file without a recorded duration is estimated from its size and
// its project: a line of a browser journey costs far more than a line of a unit test.
const fs = require('node:fs');
const Sequencer = require('@jest/test-sequencer').default;

/** Milliseconds per byte of test file, by project (measured: e2e files run 50–160 s, API files 5–40 s). */
const MS_PER_BYTE = { e2e: 6, api: 1, server: 0.3, client: 0.3 };
/**
 * A file that starts whole processes (the real server, `npm start`, the operator CLI) costs several
 * times its size: boot.test.ts, 14 KB, runs 45 s alone and 145 s beside the others.
 */
const STARTS_PROCESSES = /\b(?:startProcess|spawn|execFile\w*|runAdmin)\(/;
const PROCESS_FACTOR = 5;

class LongestFirst extends Sequencer {
  sort(tests) {
    const estimate = (test) => {
      const recorded = this.time(test);
      if (recorded != null) return recorded;
      const size = test.context.hasteFS.getSize(test.path) ?? 0;
      const perByte = MS_PER_BYTE[test.context.config.displayName?.name] ?? 0.5;
      return size * perByte * (STARTS_PROCESSES.test(fs.readFileSync(test.path, 'utf8')) ? PROCESS_FACTOR : 1);
    };
    const cost = new Map(tests.map((t) => [t.path, estimate(t)]));
    return [...tests].sort((a, b) => {
      const failed = Number(this.hasFailed(b)) - Number(this.hasFailed(a));
      return failed || cost.get(b.path) - cost.get(a.path);
    });
  }
}

module.exports = LongestFirst;
