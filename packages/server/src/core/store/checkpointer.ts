// WAL checkpoints off the event loop. SQLite copies the write-ahead log back into the database
// file (a checkpoint) on the connection whose COMMIT takes the log past `wal_autocheckpoint`
// pages; better-sqlite3 runs that on the calling thread, so every other request waited for it
// (40 to 50 ms under a stream of the largest writes: the watchdog test's stall). Instead, a worker
// thread with a connection of its own runs PASSIVE checkpoints, which wait for no reader or
// writer, a moment after writes commit. The server's connection is left only the frames of the
// last moments to copy when its log reaches the size at which it restarts the log.
import { Worker } from 'node:worker_threads';

/** At most one checkpoint per this many milliseconds while writes keep coming. */
const INTERVAL_MS = 50;

// The worker: CommonJS run from this string, so it needs no file of its own next to the bundle
// (dist) or the sources (tests). It loads the same driver as the server, by path.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  const [result] = db.pragma('wal_checkpoint(PASSIVE)');
  parentPort.postMessage(result);
});
`;

export interface Checkpointer {
  /** A batch of writes committed: checkpoint soon. */
  wrote(): void;
  /** Stops the worker (before the server's own connection closes and checkpoints the rest). */
  close(): Promise<void>;
}

/**
 * Starts the worker for the database `file`, opened with the driver module at `driverPath`.
 * `onFailure` is told once if the worker cannot run (its connection fails to open, a checkpoint
 * throws): the caller then lets its own connection checkpoint again, so the log stays bounded.
 */
export function startCheckpointer(file: string, driverPath: string, onFailure: (error: Error) => void): Checkpointer {
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, driver: driverPath } });
  worker.unref(); // a server that is done does not wait for it
  let running = false; // a checkpoint is in the worker now
  let wanted = false; // writes committed since the running checkpoint began
  let timer: NodeJS.Timeout | undefined;
  let lastStart = 0;
  let stopped = false;

  const start = () => {
    timer = undefined;
    if (stopped) return;
    running = true;
    wanted = false;
    lastStart = performance.now();
    worker.postMessage('checkpoint');
  };
  const schedule = () => {
    if (running || timer || stopped) return;
    timer = setTimeout(start, Math.max(0, lastStart + INTERVAL_MS - performance.now()));
    timer.unref();
  };
  const fail = (error: Error) => {
    if (stopped) return;
    stopped = true;
    clearTimeout(timer);
    void worker.terminate();
    onFailure(error);
  };
  worker.on('message', () => {
    running = false;
    if (wanted) schedule();
  });
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the checkpoint worker exited (code ${code})`)));

  return {
    wrote() {
      wanted = true;
      schedule();
    },
    async close() {
      if (stopped) return;
      stopped = true;
      clearTimeout(timer);
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      worker.ref(); // a process with nothing else to do waits for the worker's exit
      worker.postMessage('close');
      await exited;
    },
  };
}
