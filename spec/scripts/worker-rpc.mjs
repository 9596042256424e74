// A long-lived worker thread that keeps its state (loaded configurations, parsed files) between
// calls: `startWorker(url, data)` on the caller's side, `serveMethods(object)` in the worker.
// Calls are answered in the order they are made, so a cheap call (an invalidation) posted before
// a lint is seen by that lint without being awaited.
import { parentPort, Worker } from 'node:worker_threads';

/** In the worker: answers { id, method, args } with { id, result } or { id, error }. */
export function serveMethods(methods) {
  parentPort.on('message', async ({ id, method, args }) => {
    try {
      const result = await (await methods)[method](...args);
      parentPort.postMessage({ id, result: result ?? null });
    } catch (error) {
      parentPort.postMessage({ id, error: { message: error.message, stack: error.stack, name: error.name } });
    }
  });
}

/**
 * On the caller's side. `call(method, ...args)` resolves with the worker's answer; every call
 * pending when the worker ends (close(), a crash) is rejected.
 * @returns {{ call: (method: string, ...args: unknown[]) => Promise<unknown>, close: () => Promise<number> }}
 */
export function startWorker(url, workerData) {
  const worker = new Worker(url, { workerData });
  const pending = new Map();
  let nextId = 0;
  let failure = null;
  worker.on('message', ({ id, result, error }) => {
    const waiting = pending.get(id);
    pending.delete(id);
    if (error) waiting?.reject(Object.assign(new Error(error.message), { stack: error.stack, name: error.name }));
    else waiting?.resolve(result);
  });
  const failAll = (error) => {
    failure ??= error;
    for (const waiting of pending.values()) waiting.reject(error);
    pending.clear();
  };
  worker.on('error', failAll);
  worker.on('exit', (code) => failAll(new Error(`the worker ${url.pathname ?? url} exited (code ${code})`)));
  return {
    call(method, ...args) {
      if (failure) return Promise.reject(failure);
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, method, args });
      });
    },
    close: () => worker.terminate(),
  };
}
