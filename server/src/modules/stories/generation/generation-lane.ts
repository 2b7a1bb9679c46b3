/**
 * How chapter generations share the event loop with the requests players are waiting on.
 *
 * A chapter has a cheap, urgent start (compose it, hand over the first chunk: a player is watching
 * the screen for it) and a bulk that nobody is blocked on chunk by chunk (the rest of the text, the
 * commit). Without care the bulk of every running chapter runs in the loop turn it becomes ready
 * in, so one loop turn holds the bulk of many chapters, and every HTTP request and every subscribe that arrives meanwhile waits for all of them:
 * under load a player's first chunk comes as late as the whole chapter.
 *
 * The lane gives background work at most `budgetMs` of each loop turn (it runs in the check phase,
 * after the poll phase that serves incoming requests), one generation at a time in first-come order,
 * so chapters finish in about the order they started and a loop turn never grows past the requests
 * that arrived plus the budget. A generation calls `enter` at each point where it may pause: it
 * continues at once while it holds the lane and the turn's budget lasts, and otherwise waits for a
 * later turn (at the head of the queue when it was interrupted, at the tail when it asks to go to the
 * background). `leave` when it is done. A generation that waits on real I/O (PostgreSQL) or a timer
 * loses the lane as soon as it does, and runs on when the I/O answers, so I/O never stalls the others.
 */
export class GenerationLane {
  private readonly queue: Array<{ task: object; resume: () => void }> = [];
  private holder: object | null = null;
  /** Tasks that entered their database part (the commit): see maxAway. */
  private readonly onDatabase = new Set<object>();
  /** Tasks that lost the lane while waiting on the database and have not come back yet. */
  private readonly away = new Set<object>();
  private turnEndsAt = 0;
  private scheduled = false;

  /**
   * @param budgetMs background work per loop turn
   * @param maxAway how many generations may be waiting on the database at once (entered with
   *   `database`) before no other one goes on: on PostgreSQL each holds a pooled connection
   *   meanwhile, and the requests players wait on need connections from the same pool. A generation
   *   waiting on its model (a network stream) does not count: it holds no connection.
   */
  constructor(
    private readonly budgetMs: number,
    private readonly maxAway = 4,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /**
   * Resolves when `task` may go on. `background`: go behind every generation already waiting (a
   * generation that has just handed over its first chunk); otherwise a task that has to wait goes
   * first in the next turn (it was interrupted by the budget, not overtaken). `database`: from here
   * on the task works with the database (see maxAway).
   */
  enter(task: object, { background = false, database = false }: { background?: boolean; database?: boolean } = {}): Promise<void> | void {
    this.away.delete(task);
    if (database) this.onDatabase.add(task);
    if (!background && this.holder === task && this.now() < this.turnEndsAt) return;
    if (this.holder === task) this.holder = null;
    const waiting = new Promise<void>((resume) => {
      const entry = { task, resume };
      if (background) this.queue.push(entry);
      else this.queue.unshift(entry);
    });
    this.next();
    return waiting;
  }

  /** The task is done (or failed): the lane passes to the next one. */
  leave(task: object): void {
    this.onDatabase.delete(task);
    const i = this.queue.findIndex((e) => e.task === task);
    if (i >= 0) this.queue.splice(i, 1);
    const wasAway = this.away.delete(task);
    const wasHolder = this.holder === task;
    if (wasHolder) this.holder = null;
    if (wasAway || wasHolder) this.next();
  }

  /** Hands the lane to the first waiting task if this turn has budget left, else schedules a turn. */
  private next(): void {
    if (this.holder !== null || this.queue.length === 0 || this.away.size >= this.maxAway) return;
    if (this.now() < this.turnEndsAt) {
      const e = this.queue.shift() as { task: object; resume: () => void };
      this.holder = e.task;
      e.resume();
      // Once the microtasks the task runs on have run (process.nextTick fires after the microtask
      // queue is empty), it has paused (enter/leave) — or it waits on I/O or a timer, and the lane
      // goes on without it: on PostgreSQL every query is such a wait.
      queueMicrotask(() => process.nextTick(() => this.blocked(e.task)));
      return;
    }
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.turn);
  }

  private blocked(task: object): void {
    if (this.holder !== task) return;
    this.holder = null;
    if (this.onDatabase.has(task)) this.away.add(task);
    this.next();
  }

  private readonly turn = (): void => {
    this.scheduled = false;
    this.turnEndsAt = this.now() + this.budgetMs;
    this.next();
  };

  /** Generations waiting for a turn (for tests and diagnostics). */
  get waiting(): number {
    return this.queue.length;
  }
}
