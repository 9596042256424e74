// The worker thread behind startLintWorker() (run-linters.mjs): one createLinters() whose
// configurations stay loaded between calls.
import { workerData } from 'node:worker_threads';
import { createLinters } from './run-linters.mjs';
import { serveMethods } from './worker-rpc.mjs';

serveMethods(createLinters({ specDir: workerData.specDir }));
