// One generator's output compiled and checked (src/check.mjs) on a worker thread, so that two
// TypeScript programs are built side by side.
import { parentPort, workerData } from 'node:worker_threads';
import { checkOutput } from './check.mjs';

const { document, generator, files, dir } = workerData;
parentPort.postMessage(checkOutput(document, generator, files, dir));
