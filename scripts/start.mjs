// `npm start`: builds through Turbo what the three need (the rest of the pipeline follows in the
// background), reports what it produced, then serves the documentation site, the mock and the
// reference server until Ctrl-C (SIGINT or SIGTERM), which stops all three.
// `npm run dev` (--watch) also runs the designer loop (@cloudapi/dev): each spec save is linted,
// bundled, compared with HEAD, served by the mock and rebuilt into the docs, with stage times.
//
// One part failing never stops the others: every request meets an error boundary in each server;
// the server runs in a child process and the mock in a worker, each started again when it fails
// (start/supervise.mjs, which says so); a part that keeps failing stays stopped, said loudly, and
// Ctrl-C then exits 1.
//
//   DOCS_PORT  port of the docs (8080)       PORT  port of the mock (4010)
//   SERVER_PORT  port of the server (4020)   HOST  address of all three (127.0.0.1)
//   DATA_DIR, DATABASE_URL, TOKENS_FILE, TRANSITION_MS: the server's store, tokens and clock
//   CORS_ORIGINS  more origins whose pages may call the mock and the server (the docs' own, on
//                 the port they serve, always may)
//   ALLOWED_HOSTS  Host names all three answer besides IP addresses, localhost and *.localhost
//   --no-build  serve what was built last
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
// Only the spec's source files are imported up front: the docs, the mock and the server are loaded
// with import() after the build, since on a fresh clone their entry points (dist/) do not exist
// until it has run.
import { defaultBundleFile, loadBundle } from '@cloudapi/spec/bundle';
import { command, parse } from '@cloudapi/spec/cli';
import { exposureNotice, loopbackTwins, parseAllowedHosts, parseCorsOrigins } from '@cloudapi/spec/trust';
import { buildForServing, buildTheRestInBackground } from './start/build.mjs';
import { superviseMock, superviseServer } from './start/supervise.mjs';

const rootDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const options = parse(command('start', 'Builds the pipeline, then serves the documentation site, the mock and the reference server until Ctrl-C.')
  .option('--no-build', 'serve what was built last')
  .option('--watch', 'the designer loop: rebuild, lint and compare with HEAD on every spec save (npm run dev)')
  .addHelpText('after', '\nEnvironment: DOCS_PORT (8080), PORT (4010), SERVER_PORT (4020), HOST (127.0.0.1), CORS_ORIGINS, ALLOWED_HOSTS;\nthe server: DATA_DIR, DATABASE_URL, TOKENS_FILE, TRANSITION_MS, LOG_LEVEL.'));

function portFrom(name, fallback) {
  const raw = process.env[name];
  const port = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`✖ ${name} must be an integer from 0 to 65535, got "${raw}".`);
    process.exit(2);
  }
  return port;
}

/** A list setting read with its parser (@cloudapi/spec/trust); bad usage (exit 2) naming it otherwise. */
function listFrom(name, read) {
  try {
    return read(process.env[name] ?? '');
  } catch (error) {
    console.error(`✖ ${error.message}`);
    process.exit(2);
  }
}

const docsPort = portFrom('DOCS_PORT', 8080);
const mockPort = portFrom('PORT', 4010);
const serverPort = portFrom('SERVER_PORT', 4020);
const host = process.env.HOST || '127.0.0.1';
const allowedHosts = listFrom('ALLOWED_HOSTS', parseAllowedHosts);
const extraOrigins = listFrom('CORS_ORIGINS', parseCorsOrigins);

// A fresh clone builds what the three servers need first, the rest of the pipeline while they
// serve (scripts/start/build.mjs).
if (options.build) {
  buildForServing(rootDir);
  buildTheRestInBackground(rootDir);
}

// The server is loaded by its own process (start/server-part.mjs); here its build is only checked.
const [{ createLiveChannel, docsDistDir, serveStatic }, { mockDocumentPath, startMock }] = await Promise.all([
  import('@cloudapi/docs'), import('@cloudapi/mock'),
]).catch((error) => {
  console.error(`✖ the built packages could not be loaded (${error.message}): run \`npm start\` without --no-build (or \`npm run build\`) first.`);
  process.exit(1);
});
const bundle = defaultBundleFile();
if (!existsSync(bundle) || !existsSync(path.join(docsDistDir, 'index.html')) || !existsSync(path.join(rootDir, 'packages/server/dist/index.js'))) {
  console.error('✖ nothing to serve: run `npm start` without --no-build (or `npm run build`) first.');
  process.exit(1);
}
const document = loadBundle(bundle);
const operations = Object.values(document.paths).flatMap((item) => ['get', 'put', 'post', 'delete', 'patch'].filter((m) => item[m]));
const kib = (file) => `${(statSync(file).size / 1024).toFixed(0)} KiB`;
console.log(`\nCloud Account Management API ${document.info.version}: ${operations.length} operations, ${Object.keys(document.components.schemas).length} schemas`);
const built = ['packages/types/dist/index.d.ts', 'packages/client/dist/index.js', 'packages/client/dist/index.cjs', 'packages/docs/dist/index.html'];
for (const full of [defaultBundleFile('openapi.yaml'), bundle, ...built.map((file) => path.join(rootDir, file))]) {
  if (existsSync(full)) console.log(`  ${path.relative(rootDir, full).padEnd(32)} ${kib(full)}`);
}

/**
 * The origins a reader opens the docs under: the docs' address with its loopback twins, or, on
 * every interface (HOST=0.0.0.0), 127.0.0.1's and each ALLOWED_HOSTS name's, on the docs' port.
 */
function docsOriginsOf(docsUrl) {
  const { port, hostname } = new URL(docsUrl);
  const wildcard = hostname === '0.0.0.0' || hostname === '[::]';
  const named = wildcard ? allowedHosts.filter((name) => !name.startsWith('.')).map((name) => `http://${name}:${port}`) : [];
  return [...loopbackTwins(wildcard ? `http://127.0.0.1:${port}` : new URL(docsUrl).origin), ...named];
}

// The docs first: the mock and the server trust its origin (CORS) for the page's "Try it"
// console, which learns where they are from /try-it/targets.json. Then those two together; if one
// fails to start, the others are stopped before exiting.
const env = process.env;
const tryItTargets = [];
const say = (line) => console.log(line);
// Watch mode: the docs server also tells open pages of each change (the designer loop's live
// channel, served behind the docs server's Host boundary).
const live = options.watch === true ? createLiveChannel({ root: docsDistDir }) : null;
const docs = await serveStatic({ root: docsDistDir, port: docsPort, host, allowedHosts, json: { '/try-it/targets.json': () => ({ targets: tryItTargets }) }, routes: live?.routes })
  .then((value) => ({ status: 'fulfilled', value }), (reason) => ({ status: 'rejected', reason }));
if (docs.status === 'rejected') {
  console.error(`✖ the docs server did not start: ${docs.reason.message}`);
  process.exit(1);
}
const corsOrigins = [...docsOriginsOf(docs.value.url), ...extraOrigins];
const [mock, server] = await Promise.allSettled([
  // In watch mode the designer loop reloads the mock itself, once per save (reload() on the handle).
  superviseMock(startMock, { port: mockPort, host, watch: options.watch !== true, corsOrigins, allowedHosts }, say),
  superviseServer({
    port: serverPort, host, dataDir: env.DATA_DIR || undefined, databaseUrl: env.DATABASE_URL || undefined, tokensFile: env.TOKENS_FILE || undefined,
    transitionMs: env.TRANSITION_MS ? Number(env.TRANSITION_MS) : undefined, logLevel: env.LOG_LEVEL || 'warn', corsOrigins, allowedHosts,
  }, say),
]);
if (mock.status === 'rejected' || server.status === 'rejected') {
  await Promise.all([docs, mock, server].filter((r) => r.status === 'fulfilled').map((r) => r.value.stop()));
  if (mock.status === 'rejected') console.error(`✖ the mock did not start: ${mock.reason.message}${mockPort === 4010 ? ' (set PORT to use another port)' : ''}`);
  if (server.status === 'rejected') console.error(`✖ the reference server did not start: ${server.reason.message.replace(/set PORT/, 'set SERVER_PORT')}`);
  process.exit(1);
}

const running = server.value.info;
tryItTargets.push({ name: 'Mock', url: mock.value.handle.baseUrl }, { name: 'Reference server', url: running.baseUrl });

const watching = options.watch === true;
const exposure = exposureNotice(host, { allowedHosts, what: 'the docs, the mock and the server' });
console.log(`
✔ docs  ${docs.value.url}
✔ mock  ${mock.value.handle.baseUrl}   try: curl -s ${mock.value.handle.baseUrl}/regions
✔ server  ${running.baseUrl}   (${running.store.engine}: ${running.store.location}; pid ${server.value.pid()})
  token: ${running.token ?? `from ${env.TOKENS_FILE}`}
  try: curl -s -H "Authorization: Bearer ${running.token ?? '<token>'}" ${running.baseUrl}/volumes
${[...running.notices, ...(exposure ? [exposure] : [])].map((line) => `  ⚠ ${line}\n`).join('')}  ${watching ? 'Starting the designer loop (linters, the bundle of HEAD)... ' : ''}Ctrl-C stops ${watching ? 'everything' : 'all three'}.`);

let loop = null;
let stopping = false;
const stopAll = () => {
  live?.close();
  return Promise.all([docs.value.stop(), mock.value.stop(), server.value.stop()]);
};
// Nothing in this process should throw outside a request's boundary; if something does, it is
// said, the parts are stopped, and the exit status says it failed.
for (const event of ['uncaughtException', 'unhandledRejection']) {
  process.on(event, async (error) => {
    console.error(`✖ npm start failed (${event}): ${error?.stack ?? error}\n  stopping the docs, the mock and the server.`);
    if (stopping) return;
    stopping = true;
    await Promise.race([stopAll(), new Promise((resolve) => setTimeout(resolve, 10_000))]);
    process.exit(1);
  });
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    await loop?.close();
    await stopAll();
    const failed = [mock.value.failed() && 'the mock', server.value.failed() && 'the server'].filter(Boolean);
    console.log(`\n✔ stopped the docs, the mock and the server.${failed.length ? ` ${failed.join(' and ')} had stopped on failures before: exit 1.` : ''}`);
    process.exit(failed.length ? 1 : 0);
  });
}

// Watch mode: the part of the graph a preview needs (bundle, mock, docs), rebuilt on every save;
// `npm run build` rebuilds the types and the client.
if (watching) {
  try {
    const { startDevLoop } = await import('@cloudapi/dev');
    loop = await startDevLoop({
      specDir: path.join(rootDir, 'spec'),
      mock: mock.value.handle,
      mockDocument: mockDocumentPath,
      docsDir: docsDistDir,
      docsUrl: docs.value.url,
      live,
    });
  } catch (error) {
    console.error(`✖ the designer loop did not start: ${error.stack ?? error.message}`);
    await stopAll();
    process.exit(1);
  }
}
