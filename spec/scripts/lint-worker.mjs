// The worker thread behind startLintWorker() (run-linters.mjs): one createLinters() whose
// configurations stay loaded, answering { id, method, args } with { id, result } or { id, error }.
import { parentPort, workerData } from 'node:worker_threads';
import { createLinters } from './run-linters.mjs';

const linters = createLinters({ specDir: workerData.specDir });

parentPort.on('message', async ({ id, method, args }) => {
  try {
    const result = await (await linters)[method](...args);
    parentPort.postMessage({ id, result: result ?? null });
  } catch (error) {
    parentPort.postMessage({ id, error: { message: error.message, stack: error.stack } });
  }
});
