// `npm start`: builds the whole pipeline through Turbo, reports what it produced, then serves the
// documentation site, the mock and the reference server until Ctrl-C (SIGINT or SIGTERM), which
// stops all three.
// `npm run dev` (--watch) also rebuilds the docs and the mock whenever a spec source changes,
// prints the lint findings of the change and what it breaks for clients.
//
//   DOCS_PORT  port of the docs (8080)       PORT  port of the mock (4010)
//   SERVER_PORT  port of the server (4020)   HOST  address of all three (127.0.0.1)
//   DATA_DIR, DATABASE_URL, TOKENS_FILE, TRANSITION_MS: the server's store, tokens and clock
//   --no-build  serve what was built last
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { docsDistDir, serveStatic } from '@cloudapi/docs';
import { startMock } from '@cloudapi/mock';
import { startServer } from '@cloudapi/server';
import { compareDocuments } from '@cloudapi/spec/breaking';
import { watchSources } from '@cloudapi/spec/watch';

const rootDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

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

if (!process.argv.includes('--no-build')) {
  const build = spawnSync(npx, ['turbo', 'run', 'build', '--output-logs=errors-only'], { cwd: rootDir, stdio: 'inherit' });
  if (build.status !== 0) {
    console.error('\n✖ build failed; the output above says which task and why.');
    process.exit(build.status || 1);
  }
}

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

// All three start together; if one fails, the others are stopped before exiting.
const env = process.env;
const [docs, mock, server] = await Promise.allSettled([
  serveStatic({ root: docsDistDir, port: docsPort, host }),
  startMock({ port: mockPort, host }),
  startServer({
    port: serverPort, host, dataDir: env.DATA_DIR || undefined, databaseUrl: env.DATABASE_URL || undefined, tokensFile: env.TOKENS_FILE || undefined,
    transitionMs: env.TRANSITION_MS ? Number(env.TRANSITION_MS) : undefined, logLevel: env.LOG_LEVEL || 'warn',
  }).then((running) => ({ ...running, stop: running.close })),
]);
if (docs.status === 'rejected' || mock.status === 'rejected' || server.status === 'rejected') {
  await Promise.all([docs, mock, server].filter((r) => r.status === 'fulfilled').map((r) => r.value.stop()));
  if (docs.status === 'rejected') console.error(`✖ the docs server did not start: ${docs.reason.message}`);
  if (mock.status === 'rejected') console.error(`✖ the mock did not start: ${mock.reason.message}${mockPort === 4010 ? ' (set PORT to use another port)' : ''}`);
  if (server.status === 'rejected') console.error(`✖ the reference server did not start: ${server.reason.message.replace(/set PORT/, 'set SERVER_PORT')}`);
  process.exit(1);
}

const watching = process.argv.includes('--watch');
console.log(`
✔ docs  ${docs.value.url}
✔ mock  ${mock.value.baseUrl}   try: curl -s ${mock.value.baseUrl}/regions
✔ server  ${server.value.baseUrl}   (${server.value.store.engine}: ${server.value.store.location})
  token: ${server.value.token ?? `from ${env.TOKENS_FILE}`}
  try: curl -s -H "Authorization: Bearer ${server.value.token ?? '<token>'}" ${server.value.baseUrl}/volumes
  ${watching ? 'Watching spec/ for changes. ' : ''}Ctrl-C stops ${watching ? 'everything' : 'all three'}.`);

let watcher = null;
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    watcher?.close();
    await Promise.all([docs.value.stop(), mock.value.stop(), server.value.stop()]);
    console.log('\n✔ stopped the docs, the mock and the server.');
    process.exit(0);
  });
}

// Watch mode. A change rebuilds the bundle, the mock's document (the mock watches it and serves it
// without a restart; `mock.reload()` would do the same on demand) and the docs: the part of the
// graph a preview needs, in a few seconds; `npm run build` rebuilds the types and the client. Lint
// runs on the sources meanwhile, and the new bundle is compared with the one this session started
// from.
function run(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: rootDir, env: { ...process.env, NO_COLOR: '1' } });
    let output = '';
    child.stdout.on('data', (d) => { output += d; });
    child.stderr.on('data', (d) => { output += d; });
    child.on('close', (code) => resolve({ code, output }));
  });
}

if (watching) {
  const baseline = document;
  let busy = false;
  let pending = null;
  const rebuild = async (files) => {
    if (busy) { pending = [...new Set([...(pending ?? []), ...files])]; return; }
    busy = true;
    const started = Date.now();
    console.log(`\n↻ ${files.join(', ')} changed: rebuilding the docs and the mock...`);
    const [build, lint] = await Promise.all([
      run(npx, ['turbo', 'run', 'build', '--filter=@cloudapi/docs...', '--output-logs=errors-only']),
      run(process.execPath, ['spec/scripts/lint.mjs', 'openapi.yaml']),
    ]);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    if (build.code !== 0) {
      console.log(`${build.output.trim()}\n✖ the build failed (${seconds} s): still serving the previous docs and mock.`);
    } else {
      console.log(`✔ docs and mock updated in ${seconds} s (${docs.value.url}, ${mock.value.baseUrl})`);
      const { findings } = compareDocuments(baseline, JSON.parse(readFileSync(bundle, 'utf8')));
      const changes = [...new Map(findings.map((f) => [`${f.level} ${f.message}`, f])).values()];
      for (const f of changes.slice(0, 10)) console.log(`  ${f.level === 'breaking' ? '✖ breaks clients' : '⚠ check'}: ${f.message} (${f.operation})`);
      if (changes.length > 10) console.log(`  ... ${changes.length - 10} more: npm run breaking`);
    }
    console.log(lint.code === 0 ? '✔ lint clean' : lint.output.trim());
    busy = false;
    if (pending) { const next = pending; pending = null; rebuild(next); }
  };
  watcher = watchSources(path.join(rootDir, 'spec'), rebuild);
}
