// Longest files first, so no worker is left running a 2-minute browser journey while the others idle
// at the end of the run. Jest's own order uses the durations of the last run on this checkout; a clean
// clone (CI) has none, and jest then sorts by file size, which puts a short unit file with many cases
// ahead of a browser journey. Here a file without a recorded duration is estimated from its size and
// its project: a line of a browser journey costs far more than a line of a unit test.
const Sequencer = require('@jest/test-sequencer').default;

/** Milliseconds per byte of test file, by project (measured: e2e files run 50–160 s, API files 5–40 s). */
const MS_PER_BYTE = { e2e: 6, api: 1, server: 0.3, client: 0.3 };

class LongestFirst extends Sequencer {
  sort(tests) {
    const estimate = (test) => {
      const recorded = this.time(test);
      if (recorded != null) return recorded;
      const size = test.context.hasteFS.getSize(test.path) ?? 0;
      return size * (MS_PER_BYTE[test.context.config.displayName?.name] ?? 0.5);
    };
    const cost = new Map(tests.map((t) => [t.path, estimate(t)]));
    return [...tests].sort((a, b) => {
      const failed = Number(this.hasFailed(b)) - Number(this.hasFailed(a));
      return failed || cost.get(b.path) - cost.get(a.path);
    });
  }
}

module.exports = LongestFirst;
