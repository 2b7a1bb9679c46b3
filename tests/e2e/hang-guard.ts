// Browser journeys are dozens of steps, each with a wait of its own (a selector, a response, a
// streamed chapter), so the whole-test timeout only has to catch a hang. On a loaded 2-core machine
// (load average 20) the longest journey took 4–5 minutes of wall time; a tighter limit failed runs
// on speed, which no browser test is meant to judge (speed lives in the benchmarks).
jest.setTimeout(600_000);
