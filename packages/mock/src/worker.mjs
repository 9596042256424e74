// The mock's serving process: the front layer and Prism's engine (front.mjs, engine.mjs) in one
// process, started and supervised by startMock() (index.mjs), which holds the public port and
// hands each connection over. If this process dies, the supervisor keeps accepting connections
// and gives them to the next one.
//
// Messages out: {type: 'operations', key, json} (operations made from the document),
// {type: 'operations-used'} (those handed over were served), {type: 'ready', operations, prismPort?},
// {type: 'took', id}, {type: 'exchange', counts, lines} (proxy mode), {type: 'log', line},
// {type: 'reloaded', id, operations}, {type: 'reload-failed', id, message}. Messages in:
// {type: 'operations', key, json} (first, when `operationsKey` is set), {type: 'connection', id}
// with a socket, {type: 'reload', id}.
import { readFile } from 'node:fs/promises';
import { createEngine, operationsOf } from './engine.mjs';
import { documentKey, selfContained } from './operations-cache.mjs';
import { changedPaths } from './incremental.mjs';
import { createFaultStage } from './faults.mjs';
import { createFrontServer } from './front.mjs';
import { parseFaults } from '@cloudapi/spec/faults';
import { createRoutes } from './routes.mjs';
import { judge } from './verdict.mjs';
import { filterSpecs } from '@cloudapi/spec/filters';

const options = JSON.parse(process.argv[2]);

// The operations the supervisor hands over when it has them for the document (operations-cache.mjs):
// sent right after this process started, with `operationsKey` in its options.
const handed = options.operationsKey ? new Promise((resolve) => {
  const take = (message) => {
    if (message?.type !== 'operations') return;
    process.off('message', take);
    resolve(message);
  };
  process.on('message', take);
}) : null;

/**
 * Prism's operations of the document whose text is `text`: those the supervisor handed over when
 * they are of this very text, else made from the document (and sent to the supervisor for the
 * next worker).
 */
async function operationsFor(text) {
  const key = documentKey(text);
  const given = handed && options.operationsKey === key ? await handed : null;
  if (given?.key === key) {
    process.send({ type: 'operations-used' });
    return JSON.parse(given.json);
  }
  const operations = await operationsOf(options.document);
  if (selfContained(text)) process.send({ type: 'operations', key, json: JSON.stringify(operations) });
  return operations;
}

/**
 * The engine and the routes for the document as it is on disk now, swapped in together. One
 * request is answered first, unseen: a fresh engine's first answer costs most of a second of
 * one-time set-up, which a client (or a standby taking over) should not wait for.
 */
async function load() {
  const text = await readFile(options.document, 'utf8');
  const engine = await createEngine({ ...options, operations: await operationsFor(text) });
  const document = JSON.parse(text);
  const simplest = Object.keys(document.paths ?? {}).find((path) => !path.includes('{') && document.paths[path].get);
  if (simplest && !options.upstream) await engine.answer({ method: 'GET', url: simplest, headers: {}, body: null });
  return { engine, document, routes: createRoutes(document), filters: filterSpecs(document) };
}

/**
 * The document as it is on disk now, re-reading only the path items it changed (incremental.mjs):
 * the same engine, with their operations made again. A change every operation may depend on
 * (info, servers, security schemes) loads it all.
 */
async function reload() {
  const document = JSON.parse(await readFile(options.document, 'utf8'));
  const change = changedPaths(served.document, document);
  if (change.all) return load();
  const engine = await served.engine.updated(document, change.paths);
  return { engine, document, routes: createRoutes(document), filters: filterSpecs(document) };
}

let served = await load();
const front = createFrontServer({
  mode: options.upstream ? 'proxy' : 'mock',
  current: () => served,
  maxBody: options.maxBody,
  maxDepth: options.maxDepth,
  corsOrigins: options.corsOrigins,
  allowedHosts: options.allowedHosts,
  // Only the proxy reports exchanges: the mock has nothing to count, and an IPC message per
  // request would cost more than the request.
  onExchange: options.upstream ? (exchange) => process.send({ type: 'exchange', ...judge(exchange) }) : () => {},
  log: (line) => process.send({ type: 'log', line }),
  faults: createFaultStage(parseFaults(options.faults), (line) => process.send({ type: 'log', line })),
});
// The benchmark's anchor: Prism's own HTTP server on the same operations, without the front layer.
const alone = options.anchor ? await served.engine.listenAlone() : null;
process.send({ type: 'ready', operations: served.engine.operations, prismPort: alone?.port });

process.on('message', async (message, socket) => {
  if (message?.type === 'connection') {
    if (!socket) return;
    process.send({ type: 'took', id: message.id }); // the supervisor closes its copy
    front.emit('connection', socket);
    socket.resume();
  } else if (message?.type === 'reload') {
    try {
      served = await reload();
      process.send({ type: 'reloaded', id: message.id, operations: served.engine.operations });
    } catch (error) {
      process.send({ type: 'reload-failed', id: message.id, message: error.message });
    }
  }
});
// The supervisor going away (even by SIGKILL) closes the channel: nothing is left behind.
process.on('disconnect', () => process.exit(0));
