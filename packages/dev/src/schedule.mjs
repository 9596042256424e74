// When the designer loop works: one rebuild at a time, each numbered (`run`). A save during a
// rebuild makes what is left of it stale (`isCurrent(run)` turns false) and waits, merged with any
// other save waiting, for the rebuild to end; the oldest save waiting sets the clock. Work nobody
// waits for (`afterIdle`) starts once no save came for `idleMs`, and a save stops it.

/** Merges the changes of a save into those already waiting: a file added then changed stays added. */
function merge(waiting, changes) {
  const byFile = new Map(waiting.map((c) => [c.file, c]));
  for (const c of changes) {
    const before = byFile.get(c.file);
    byFile.set(c.file, before?.change === 'added' && c.change !== 'removed' ? before : c);
  }
  return [...byFile.values()].sort((a, b) => a.file.localeCompare(b.file));
}

/**
 * @param {object} options
 * @param {(changes: Array<{ file: string, change: string }>, since: number, run: number) => Promise<void>} options.rebuild
 * @param {() => void} options.stopIdleWork ends the idle work that is running (a save came)
 * @param {number} options.idleMs
 * @param {(line: string) => void} options.log
 */
export function createSchedule({ rebuild, stopIdleWork, idleMs, log }) {
  let generation = 0;
  let running = null;
  let queued = null;
  const idle = { timer: null, running: null };
  const waiters = [];
  const notifyIdle = () => {
    if (running || queued || idle.timer || idle.running) return;
    for (const resolve of waiters.splice(0)) resolve();
  };

  function onChange(changes, { since = Date.now() } = {}) {
    clearTimeout(idle.timer);
    idle.timer = null;
    if (idle.running) stopIdleWork();
    if (running) {
      queued = { changes: merge(queued?.changes ?? [], changes), since: Math.min(queued?.since ?? since, since) };
      generation++; // what is left of the running rebuild is stale
      return;
    }
    running = rebuild(changes, since, ++generation)
      .catch((error) => log(`✖ the rebuild failed: ${error.stack ?? error.message}`))
      .finally(() => {
        running = null;
        if (queued) {
          const next = queued;
          queued = null;
          onChange(next.changes, { since: next.since });
        }
        notifyIdle();
      });
  }

  return {
    onChange,
    /** Whether `run` is still the latest rebuild (no save came since it began). */
    isCurrent: (run) => run === generation,
    /** The latest rebuild's number (0 before the first save). */
    current: () => generation,
    /** Runs `work` once no save came for `idleMs` (replacing idle work not started yet). */
    afterIdle(work) {
      clearTimeout(idle.timer);
      idle.timer = setTimeout(() => {
        idle.timer = null;
        idle.running = work()
          .catch((error) => log(`  ✖ ${error.stack ?? error.message}`))
          .finally(() => {
            idle.running = null;
            notifyIdle();
          });
      }, idleMs);
    },
    /** Resolves when no rebuild is running or queued and no idle work is waiting or running. */
    idle: () => new Promise((resolve) => { waiters.push(resolve); notifyIdle(); }),
    /** Everything in flight is stale from now on; idle work waiting is dropped. */
    close() {
      generation++;
      clearTimeout(idle.timer);
      idle.timer = null;
      notifyIdle();
    },
  };
}
