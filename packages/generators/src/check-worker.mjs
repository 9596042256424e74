// A worker thread that compiles and checks generators' outputs (src/check.mjs) one after the
// other, as the pipeline sends them: two such threads build two TypeScript programs side by side,
// and each keeps the parsed standard library and dependencies for its next program.
import { parentPort } from 'node:worker_threads';
import { checkOutput, createCachingHost } from './check.mjs';

const host = createCachingHost();
parentPort.on('message', ({ document, generator, files, dir }) => {
  try {
    parentPort.postMessage({ result: checkOutput(document, generator, files, dir, host) });
  } catch (error) {
    parentPort.postMessage({ error: String(error?.stack ?? error) });
  }
});
