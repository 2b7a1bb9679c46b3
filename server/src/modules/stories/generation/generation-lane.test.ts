import { GenerationLane } from './generation-lane';

/**
 * The lane's order and budget, with a hand-driven clock (nothing here depends on real time): each
 * task advances the clock by what its slice "costs", and a turn ends when the budget is spent.
 */
const nextTurn = () => new Promise<void>((r) => setImmediate(r));

function setup(budgetMs = 3, maxAway = 4) {
  let clock = 0;
  const lane = new GenerationLane(budgetMs, maxAway, () => clock);
  const log: string[] = [];
  /** A generation: goes to the background after its first chunk, then runs `slices` slices of `cost` ms. */
  const run = async (name: string, slices: number, cost: number) => {
    const task = {};
    try {
      await lane.enter(task, { background: true });
      for (let i = 0; i < slices; i++) {
        log.push(`${name}${i}`);
        clock += cost;
        if (i < slices - 1) await lane.enter(task);
      }
    } finally {
      lane.leave(task);
    }
  };
  return { lane, log, run, tick: (ms: number) => (clock += ms) };
}

describe('GenerationLane', () => {
  it('runs background work first come, first served, within the budget of each loop turn', async () => {
    const { log, run } = setup(3);
    const a = run('a', 2, 1);
    const b = run('b', 2, 1);
    const c = run('c', 2, 1);
    await nextTurn();
    // Turn 1: 3 ms of budget — a's two slices and b's first; b was interrupted, so it goes first next turn.
    expect(log).toEqual(['a0', 'a1', 'b0']);
    await nextTurn();
    expect(log).toEqual(['a0', 'a1', 'b0', 'b1', 'c0', 'c1']);
    await Promise.all([a, b, c]);
  });

  it('puts a generation that just handed over its first chunk behind the ones already waiting', async () => {
    const { log, run } = setup(2);
    const a = run('a', 3, 1);
    await nextTurn();
    expect(log).toEqual(['a0', 'a1']);
    const b = run('b', 1, 1); // new: behind a, which was interrupted
    await nextTurn();
    expect(log).toEqual(['a0', 'a1', 'a2', 'b0']);
    await Promise.all([a, b]);
  });

  it('lets the others go on while a generation waits on I/O, and takes it back after', async () => {
    const { lane, log } = setup(10);
    let answer!: () => void;
    const io = new Promise<void>((r) => (answer = r));
    const a = (async () => {
      const task = {};
      await lane.enter(task, { background: true });
      log.push('a: query sent');
      await io; // a database round trip (PostgreSQL)
      log.push('a: answered');
      await lane.enter(task);
      log.push('a: commit');
      lane.leave(task);
    })();
    const b = (async () => {
      const task = {};
      await lane.enter(task, { background: true });
      log.push('b');
      lane.leave(task);
    })();
    await nextTurn();
    expect(log).toEqual(['a: query sent', 'b']);
    answer();
    await a;
    await b;
    expect(log).toEqual(['a: query sent', 'b', 'a: answered', 'a: commit']);
  });

  it('lets no more generations on while maxAway of them wait on the database (a model stream does not count)', async () => {
    const { lane, log } = setup(10, 1);
    let model!: () => void;
    const delta = new Promise<void>((r) => (model = r));
    const streaming = (async () => {
      const task = {};
      await lane.enter(task, { background: true });
      log.push('s waits for its model');
      await delta;
      await lane.enter(task);
      log.push('s delta');
      lane.leave(task);
    })();
    let answer!: () => void;
    const io = new Promise<void>((r) => (answer = r));
    const a = (async () => {
      const task = {};
      await lane.enter(task, { background: true, database: true });
      log.push('a sent');
      await io;
      log.push('a done');
      lane.leave(task);
    })();
    const b = (async () => {
      const task = {};
      await lane.enter(task, { background: true });
      log.push('b');
      lane.leave(task);
    })();
    await nextTurn();
    await nextTurn();
    expect(log).toEqual(['s waits for its model', 'a sent']);
    expect(lane.waiting).toBe(1);
    answer();
    await Promise.all([a, b]);
    expect(log).toEqual(['s waits for its model', 'a sent', 'a done', 'b']);
    model();
    await streaming;
    expect(log[log.length - 1]).toBe('s delta');
  });

  it('drops a generation that leaves while still queued', async () => {
    const { lane, log, run } = setup(1);
    const gone = {};
    void lane.enter(gone, { background: true });
    lane.leave(gone);
    await run('a', 1, 1);
    expect(log).toEqual(['a0']);
    expect(lane.waiting).toBe(0);
  });
});
