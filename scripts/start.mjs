// `npm start`: builds through Turbo what the three need (the rest of the pipeline follows in the
// background), reports what it produced, then serves the documentation site, the mock and the
// reference server until Ctrl-C (SIGINT or SIGTERM), which stops all three.
// `npm run dev` (--watch) also runs the designer loop (@cloudapi/dev): each spec save is linted,
// bundled, compared with HEAD, served by the mock and rebuilt into the docs, with stage times.
//
//   DOCS_PORT  port of the docs (8080)       PORT  port of the mock (4010)
//   SERVER_PORT  port of the server (4020)   HOST  address of all three (127.0.0.1)
//   DATA_DIR, DATABASE_URL, TOKENS_FILE, TRANSITION_MS: the server's store, tokens and clock
//   CORS_ORIGINS  more origins whose pages may call the mock and the server (the docs' always may)
//   --no-build  serve what was built last
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
// Only the spec's command-line helper (a source file) is imported up front: the docs, the mock and
// the server are loaded with import() after the build, since on a fresh clone their entry points
// (dist/) do not exist until it has run.
import { command, parse } from '@cloudapi/spec/cli';
import { buildForServing, buildTheRestInBackground } from './start-build.mjs';

const rootDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const options = parse(command('start', 'Builds the pipeline, then serves the documentation site, the mock and the reference server until Ctrl-C.')
  .option('--no-build', 'serve what was built last')
  .option('--watch', 'the designer loop: rebuild, lint and compare with HEAD on every spec save (npm run dev)')
  .addHelpText('after', '\nEnvironment: DOCS_PORT (8080), PORT (4010), SERVER_PORT (4020), HOST (127.0.0.1), CORS_ORIGINS;\nthe server: DATA_DIR, DATABASE_URL, TOKENS_FILE, TRANSITION_MS, LOG_LEVEL.'));

function portFrom(name, fallback) {
  const raw = process.env[name];
  const port = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`✖ ${name} must be an integer from 0 to 65535, got "${raw}".`);
    process.exit(2);
  }
  return port;
}

const docsPort = portFrom('DOCS_PORT', 8080);
const mockPort = portFrom('PORT', 4010);
const serverPort = portFrom('SERVER_PORT', 4020);
const host = process.env.HOST || '127.0.0.1';

// A fresh clone builds what the three servers need first, the rest of the pipeline while they
// serve (scripts/start-build.mjs).
if (options.build) {
  buildForServing(rootDir);
  buildTheRestInBackground(rootDir);
}

const [{ docsDistDir, serveStatic }, { mockDocumentPath, startMock }, { startServer }] = await Promise.all([
  import('@cloudapi/docs'), import('@cloudapi/mock'), import('@cloudapi/server'),
]).catch((error) => {
  console.error(`✖ the built packages could not be loaded (${error.message}): run \`npm start\` without --no-build (or \`npm run build\`) first.`);
  process.exit(1);
});
const bundle = path.join(rootDir, 'spec/dist/openapi.json');
if (!existsSync(bundle) || !existsSync(path.join(docsDistDir, 'index.html'))) {
  console.error('✖ nothing to serve: run `npm start` without --no-build (or `npm run build`) first.');
  process.exit(1);
}
const document = JSON.parse(readFileSync(bundle, 'utf8'));
const operations = Object.values(document.paths).flatMap((item) => ['get', 'put', 'post', 'delete', 'patch'].filter((m) => item[m]));
const kib = (file) => `${(statSync(file).size / 1024).toFixed(0)} KiB`;
console.log(`\nCloud Account Management API ${document.info.version}: ${operations.length} operations, ${Object.keys(document.components.schemas).length} schemas`);
for (const file of ['spec/dist/openapi.yaml', 'spec/dist/openapi.json', 'packages/types/dist/index.d.ts', 'packages/client/dist/index.js', 'packages/client/dist/index.cjs', 'packages/docs/dist/index.html']) {
  const full = path.join(rootDir, file);
  if (existsSync(full)) console.log(`  ${file.padEnd(32)} ${kib(full)}`);
}

// The docs first: the mock and the server trust its origin (CORS) for the page's "Try it"
// console, which learns where they are from /try-it/targets.json. Then those two together; if one
// fails, the others are stopped before exiting.
const env = process.env;
const tryItTargets = [];
const docs = await serveStatic({ root: docsDistDir, port: docsPort, host, json: { '/try-it/targets.json': () => ({ targets: tryItTargets }) } })
  .then((value) => ({ status: 'fulfilled', value }), (reason) => ({ status: 'rejected', reason }));
// The docs' origin, and its localhost twin (a reader may type either).
const docsOrigins = docs.status === 'fulfilled' ? [new URL(docs.value.url).origin, ...(host === '127.0.0.1' ? [`http://localhost:${docs.value.port}`] : [])] : [];
const corsOrigins = [...docsOrigins, ...(env.CORS_ORIGINS ?? '').split(/[\s,]+/).filter(Boolean)];
const [mock, server] = docs.status === 'rejected' ? [] : await Promise.allSettled([
  // In watch mode the designer loop reloads the mock itself, once per save (reload() on the handle).
  startMock({ port: mockPort, host, watch: options.watch !== true, corsOrigins }),
  startServer({
    port: serverPort, host, dataDir: env.DATA_DIR || undefined, databaseUrl: env.DATABASE_URL || undefined, tokensFile: env.TOKENS_FILE || undefined,
    transitionMs: env.TRANSITION_MS ? Number(env.TRANSITION_MS) : undefined, logLevel: env.LOG_LEVEL || 'warn', corsOrigins,
  }).then((running) => ({ ...running, stop: running.close })),
]);
if (docs.status === 'rejected') {
  console.error(`✖ the docs server did not start: ${docs.reason.message}`);
  process.exit(1);
}
if (mock.status === 'rejected' || server.status === 'rejected') {
  await Promise.all([docs, mock, server].filter((r) => r.status === 'fulfilled').map((r) => r.value.stop()));
  if (mock.status === 'rejected') console.error(`✖ the mock did not start: ${mock.reason.message}${mockPort === 4010 ? ' (set PORT to use another port)' : ''}`);
  if (server.status === 'rejected') console.error(`✖ the reference server did not start: ${server.reason.message.replace(/set PORT/, 'set SERVER_PORT')}`);
  process.exit(1);
}

tryItTargets.push({ name: 'Mock', url: mock.value.baseUrl }, { name: 'Reference server', url: server.value.baseUrl });

const watching = options.watch === true;
console.log(`
✔ docs  ${docs.value.url}
✔ mock  ${mock.value.baseUrl}   try: curl -s ${mock.value.baseUrl}/regions
✔ server  ${server.value.baseUrl}   (${server.value.store.engine}: ${server.value.store.location})
  token: ${server.value.token ?? `from ${env.TOKENS_FILE}`}
  try: curl -s -H "Authorization: Bearer ${server.value.token ?? '<token>'}" ${server.value.baseUrl}/volumes
  ${watching ? 'Starting the designer loop (linters, the bundle of HEAD)... ' : ''}Ctrl-C stops ${watching ? 'everything' : 'all three'}.`);

let loop = null;
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    await loop?.close();
    await Promise.all([docs.value.stop(), mock.value.stop(), server.value.stop()]);
    console.log('\n✔ stopped the docs, the mock and the server.');
    process.exit(0);
  });
}

// Watch mode: the part of the graph a preview needs (bundle, mock, docs), rebuilt on every save;
// `npm run build` rebuilds the types and the client.
if (watching) {
  try {
    const { startDevLoop } = await import('@cloudapi/dev');
    loop = await startDevLoop({
      specDir: path.join(rootDir, 'spec'),
      mock: mock.value,
      mockDocument: mockDocumentPath,
      docsDir: docsDistDir,
      docsUrl: docs.value.url,
    });
  } catch (error) {
    console.error(`✖ the designer loop did not start: ${error.stack ?? error.message}`);
    await Promise.all([docs.value.stop(), mock.value.stop(), server.value.stop()]);
    process.exit(1);
  }
}
