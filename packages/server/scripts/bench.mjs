// `npm run bench:server`: the reference server (its own process) beside the Prism mock and bare
// `node:http` servers answering fixed JSON bodies, all measured in this run with the same load
// generator (autocannon) and the same connections, on both stores: the embedded SQLite file, then
// PostgreSQL (the test harness's private server, test/harness/postgres.ts) with one server process
// and with two processes on the one database sharing the connections. Subjects of a case run side
// by side and are loaded in turns (after a second of warm-up each, not counted), in BENCH_ROUNDS
// short slices each, so that a change in the machine's load during the run weighs on all of them
// alike; each figure is the total requests over the total time, latencies the median of the
// slices (with two processes, the larger of the two).
// Beside each figure, the CPU time per request of the server process(es) and, on PostgreSQL, of
// the database's processes, read from /proc: less sensitive to other load on the machine than
// req/s. Prints figures and the ratios of the targets; asserts nothing. The list cases (page 2
// unfiltered, and page 1 with an X-Filter: +contains on label, ordered by created) run first, on
// exactly BENCH_ROWS volumes, each beside a bare node:http server answering that page's body as the
// server wrote it (the machine's floor for sending it). BENCH_SECONDS (default 10, per subject and
// case), BENCH_ROUNDS (default 5), BENCH_CONNECTIONS (default 10), BENCH_ROWS (default 100000
// volumes stored for the list case), BENCH_ENGINES (default `sqlite,postgres`), BENCH_SERVER_BIN
// (another build's bin, to compare two builds). Last, on SQLite, the worst stall another client
// sees while the largest valid requests run (scripts/stall.mjs).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadBundle } from '@cloudapi/spec/bundle';
import { command, parse } from '@cloudapi/spec/cli';

// --help prints what it measures; the load is set through the environment.
parse(command('bench:server', "The reference server's requests per second, latency, CPU per request, start-up and memory on SQLite and PostgreSQL, beside Prism and bare node:http, with the targets' ratios.")
  .addHelpText('after', '\nEnvironment: BENCH_SECONDS (10), BENCH_ROUNDS (5), BENCH_CONNECTIONS (10), BENCH_ROWS (100000), BENCH_ENGINES (sqlite,postgres), BENCH_SERVER_BIN (the bin of another build).'));

const { harnessPostgres, line, measure, rssMb, spawnBare, spawnServer, subject, withChildren } = await import('./bench-kit.mjs');
const { default: Database } = await import('better-sqlite3');
const { default: pg } = await import('pg');
const { startMock } = await import('@cloudapi/mock');
const { measureStall } = await import('./stall.mjs');

const bundle = loadBundle();
const settings = {
  seconds: Number(process.env.BENCH_SECONDS || 10),
  connections: Number(process.env.BENCH_CONNECTIONS || 10),
  rounds: Number(process.env.BENCH_ROUNDS || 5),
};
const rows = Number(process.env.BENCH_ROWS || 100_000);
const engines = (process.env.BENCH_ENGINES || 'sqlite,postgres').split(',').map((e) => e.trim());
const TOKEN = 'bench-token';
const work = mkdtempSync(path.join(os.tmpdir(), 'cloudapi-bench-'));
const tokensFile = path.join(work, 'tokens.json');
writeFileSync(tokensFile, JSON.stringify([{ token: TOKEN, scopes: '*', grants: 'all', restricted: false }]));
const loadBefore = os.loadavg()[0];

// +contains on label and +order_by created: about 1% of the rows match.
const FILTER = JSON.stringify({ label: { '+contains': '-99' }, '+order_by': 'created', '+order': 'desc' });
const volumeExample = JSON.stringify(bundle.components.examples.VolumeCreateInRegion.value);
const volumeAnswer = bundle.components.examples.Volume?.value ?? { id: 1 };
const now = Date.now();

/** What a subject of the server counts as its CPU: its process(es), and PostgreSQL's when it has one. */
const serverCpu = (servers, database) => [
  { label: servers.length > 1 ? 'servers' : 'server', pids: () => servers.flatMap((s) => s.pids) },
  ...(database ? [{ label: 'PostgreSQL', pids: database }] : []),
];
const bareCpu = (bare) => [{ label: 'bare', pids: () => bare.pids }];
const as = (options = {}) => ({ token: TOKEN, ...options });

/** A list URL's page as the server writes it, served by a bare node:http server beside it. */
async function bareOf(url, headers = {}) {
  const body = await (await fetch(url, { headers: { authorization: `Bearer ${TOKEN}`, ...headers } })).text();
  return spawnBare(body);
}

/** The two list cases: page 2, and page 1 filtered and ordered; each beside bare node:http with its body. */
async function listCases(servers, database, label) {
  const [first] = servers;
  const urls = (query) => servers.map((s) => `${s.baseUrl}/volumes?${query}`);
  const bareList = await bareOf(urls('page=2&page_size=100')[0]);
  const bareFiltered = await bareOf(`${first.baseUrl}/volumes?page=1&page_size=100`, { 'x-filter': FILTER });
  try {
    const [list, listBare, filtered, filteredBare] = await measure([
      subject(label, urls('page=2&page_size=100'), as({ cpu: serverCpu(servers, database) }), settings),
      subject('bare node:http', `${bareList.baseUrl}/volumes`, { cpu: bareCpu(bareList) }, settings),
      subject(`${label} filtered`, urls('page=1&page_size=100'), as({ headers: { 'x-filter': FILTER }, cpu: serverCpu(servers, database) }), settings),
      subject('bare node:http', `${bareFiltered.baseUrl}/volumes`, { cpu: bareCpu(bareFiltered) }, settings),
    ], settings.rounds);
    return { list, listBare, filtered, filteredBare };
  } finally {
    await Promise.all([bareList.stop(), bareFiltered.stop()]);
  }
}

async function sqliteCases() {
  // Start-up: three fresh data directories (migrations included), median.
  const starts = [];
  for (let i = 0; i < 3; i++) {
    const server = await spawnServer({ DATA_DIR: path.join(work, `start-${i}`), TOKENS_FILE: tokensFile });
    starts.push(server.startMs);
    await server.stop();
  }
  starts.sort((a, b) => a - b);
  // The store with `rows` volumes (written straight into the SQLite file the server made).
  const dataDir = path.join(work, 'data');
  await (await spawnServer({ DATA_DIR: dataDir, TOKENS_FILE: tokensFile })).stop();
  const db = new Database(path.join(dataDir, 'cloudapi.sqlite'));
  const insert = db.prepare(`insert into volumes (label, size, region, compute_id, config_id, status, next_status, transition_at, created, updated)
    values (?, ?, 'us-east', null, null, 'active', null, null, ?, ?)`);
  // Creation times a second apart, so ordering by `created` has work to do.
  db.transaction(() => { for (let i = 1; i <= rows; i++) insert.run(`bench-${i}`, 10 + (i % 500), now - (rows - i) * 1000, now); })();
  db.close();

  const server = await spawnServer({ DATA_DIR: dataDir, TOKENS_FILE: tokensFile });
  const mock = await startMock({ port: 0 });
  const bare = await spawnBare(JSON.stringify(volumeAnswer));
  const cpu = serverCpu([server]);
  try {
    // The lists first, while the store holds exactly `rows` volumes (the POST case adds more).
    const lists = await listCases([server], null, 'server');
    const [get, getMock, getBare] = await measure([
      subject('server', `${server.baseUrl}/volumes/${Math.floor(rows / 2)}`, as({ cpu }), settings),
      subject('Prism mock', `${mock.baseUrl}/volumes/12345`, as(), settings),
      subject('bare node:http', `${bare.baseUrl}/volumes/12345`, { cpu: bareCpu(bare) }, settings),
    ], settings.rounds);
    const [post, postMock] = await measure([
      subject('server', `${server.baseUrl}/volumes`, as({ method: 'POST', body: volumeExample, cpu }), settings),
      subject('Prism mock', `${mock.baseUrl}/volumes`, as({ method: 'POST', body: volumeExample }), settings),
    ], settings.rounds);
    const rss = rssMb(server.child.pid);
    const stall = await measureStall({ baseUrl: server.baseUrl, token: TOKEN, durationMs: Math.max(2000, (settings.seconds * 1000) / 2) });
    return { ...lists, get, getMock, getBare, post, postMock, rss, stall, starts, restartMs: server.startMs };
  } finally {
    await Promise.all([server.stop(), mock.stop(), bare.stop()]);
  }
}

/** `rows` volumes written straight into the database the server migrated, as on SQLite. */
async function seedPostgres(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`insert into volumes (label, size, region, compute_id, config_id, status, next_status, transition_at, created, updated)
      select 'bench-' || i, 10 + (i % 500), 'us-east', null, null, 'active', null, null, $1::bigint - ($2::bigint - i) * 1000, $1::bigint
      from generate_series(1, $2::bigint) as i`, [now, rows]);
    await client.query('analyze');
  } finally {
    await client.end();
  }
}

async function postgresCases() {
  const harness = await harnessPostgres();
  const found = harness.ensurePostgres({ log: (l) => console.error(`[bench] ${l}`) });
  if ('error' in found) throw new Error(found.error);
  const postgres = await harness.startPostgres(found.binaries);
  const servers = [];
  try {
    const databaseUrl = await harness.createDatabase(postgres.url, 'bench');
    const env = (i) => ({ DATA_DIR: path.join(work, `pg-${i}`), DATABASE_URL: databaseUrl, TOKENS_FILE: tokensFile });
    servers.push(await spawnServer(env(0)));
    const startMs = servers[0].startMs;
    await seedPostgres(databaseUrl);
    servers.push(await spawnServer(env(1)));
    const database = withChildren(postgres.pid);
    const one = [servers[0]];
    const lists = await listCases(one, database, 'one process');
    const listsTwo = await listCases(servers, database, 'two processes');
    const getUrl = (s) => `${s.baseUrl}/volumes/${Math.floor(rows / 2)}`;
    const [get, getTwo] = await measure([
      subject('one process', getUrl(servers[0]), as({ cpu: serverCpu(one, database) }), settings),
      subject('two processes', servers.map(getUrl), as({ cpu: serverCpu(servers, database) }), settings),
    ], settings.rounds);
    const postUrl = (s) => `${s.baseUrl}/volumes`;
    const [post, postTwo] = await measure([
      subject('one process', postUrl(servers[0]), as({ method: 'POST', body: volumeExample, cpu: serverCpu(one, database) }), settings),
      subject('two processes', servers.map(postUrl), as({ method: 'POST', body: volumeExample, cpu: serverCpu(servers, database) }), settings),
    ], settings.rounds);
    return { lists, listsTwo, get, getTwo, post, postTwo, startMs, rss: rssMb(servers[0].child.pid) };
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await postgres.stop();
  }
}

const results = {};
try {
  if (engines.includes('sqlite')) results.sqlite = await sqliteCases();
  if (engines.includes('postgres')) results.postgres = await postgresCases();
} finally {
  rmSync(work, { recursive: true, force: true });
}

const print = (title, list) => {
  console.log(title);
  for (const r of list) console.log(`  ${line(r)}`);
};
const share = (a, b) => `${((a.rps / b.rps) * 100).toFixed(0)}% of bare`;
const verdict = (ok) => (ok ? '✔' : '✖');
console.log(`Reference server benchmark (Node ${process.version}, ${os.cpus().length} cores, load average ${loadBefore.toFixed(1)} at the start, ${os.loadavg()[0].toFixed(1)} at the end; autocannon ${settings.connections} connections, ${settings.seconds} s per subject and case in ${settings.rounds} turns; ${rows} volumes stored)`);
const targets = [];
const listTargets = (engine, lists) => {
  for (const [name, server, bare] of [['list page 2', lists.list, lists.listBare], ['filtered and ordered list', lists.filtered, lists.filteredBare]]) {
    targets.push(`${verdict(server.rps >= bare.rps / 4)} ${engine} ${name}: ${share(server, bare)} (target ≥ 25% of bare node:http sending the same body)`);
    targets.push(`${verdict(server.p99 <= 10)} ${engine} ${name}: p99 ${server.p99} ms (target ≤ 10 ms; bare node:http with its body: p99 ${bare.p99} ms)`);
  }
};
const { sqlite, postgres } = results;
if (sqlite) {
  console.log('\nSQLite store');
  print('GET /v4/volumes/{id} with a bearer token', [sqlite.get, sqlite.getMock, sqlite.getBare]);
  print('POST /v4/volumes (the spec\'s "inRegion" example: a volume with one tag)', [sqlite.post, sqlite.postMock]);
  print(`GET /v4/volumes?page=2&page_size=100 with ${rows} volumes stored (bare node:http: the same body)`, [sqlite.list, sqlite.listBare]);
  print(`GET /v4/volumes?page=1&page_size=100 with X-Filter ${FILTER} (bare node:http: the same body)`, [sqlite.filtered, sqlite.filteredBare]);
  console.log(`start-up to GET /health = 200: median ${sqlite.starts[1].toFixed(0)} ms on a new data directory (runs ${sqlite.starts.map((s) => s.toFixed(0)).join(', ')} ms); ${sqlite.restartMs.toFixed(0)} ms on the ${rows}-volume store`);
  console.log(`RSS of the server after the load: ${sqlite.rss.toFixed(0)} MB`);
  const { stall } = sqlite;
  console.log(`largest valid requests (a tag on 500 volumes; volumes created and updated with 100 tags of 50 characters), ${stall.heavy.requests} back to back, slowest ${stall.heavy.worstMs.toFixed(0)} ms:`);
  console.log(`  another client's GET /v4/regions meanwhile: p50 ${stall.p50.toFixed(1)} ms, p99 ${stall.p99.toFixed(1)} ms, worst stall ${stall.worst.toFixed(1)} ms (${stall.probes} probes; alone: p99 ${stall.idle.p99.toFixed(1)} ms)`);
  const getVsMock = sqlite.get.rps / sqlite.getMock.rps;
  const getVsBare = sqlite.get.rps / sqlite.getBare.rps;
  const postVsMock = sqlite.post.rps / sqlite.postMock.rps;
  targets.push(`${verdict(getVsMock >= 25)} SQLite GET:  ${getVsMock.toFixed(1)}× Prism's req/s (target ≥ 25×)`);
  targets.push(`${verdict(getVsBare >= 0.4)} SQLite GET:  ${(getVsBare * 100).toFixed(0)}% of bare node:http (target ≥ 40%)`);
  targets.push(`${verdict(postVsMock >= 10)} SQLite POST: ${postVsMock.toFixed(1)}× Prism's req/s (target ≥ 10×)`);
  listTargets('SQLite', sqlite);
  targets.push(`${verdict(sqlite.starts[1] <= 1500)} start-up: ${sqlite.starts[1].toFixed(0)} ms (target ≤ 1500 ms)`);
  targets.push(`${verdict(sqlite.rss <= 250)} RSS: ${sqlite.rss.toFixed(0)} MB (target ≤ 250 MB)`);
  targets.push(`${verdict(stall.p99 < 50)} another client's p99 while the largest valid requests run: ${stall.p99.toFixed(1)} ms (target < 50 ms; worst stall ${stall.worst.toFixed(1)} ms)`);
}
if (postgres) {
  console.log('\nPostgreSQL store (the test harness\'s server: fsync and synchronous_commit off), one server process and two on the one database');
  print('GET /v4/volumes/{id} with a bearer token', [postgres.get, postgres.getTwo]);
  print('POST /v4/volumes (the spec\'s "inRegion" example)', [postgres.post, postgres.postTwo]);
  print(`GET /v4/volumes?page=2&page_size=100 with ${rows} volumes stored (bare node:http: the same body)`, [postgres.lists.list, postgres.listsTwo.list, postgres.lists.listBare]);
  print(`GET /v4/volumes?page=1&page_size=100 with X-Filter (bare node:http: the same body)`, [postgres.lists.filtered, postgres.listsTwo.filtered, postgres.lists.filteredBare]);
  console.log(`start-up to GET /health = 200 on a new database: ${postgres.startMs.toFixed(0)} ms; RSS of one server after the load: ${postgres.rss.toFixed(0)} MB`);
  // Issue 37 measured 2,600 req/s for GET one volume on PostgreSQL (one process) on this machine.
  targets.push(`${verdict(postgres.get.rps >= 5200)} PostgreSQL GET: ${postgres.get.rps.toFixed(0)} req/s with one process (target ≥ 5,200: twice the 2,600 of issue 37)`);
  listTargets('PostgreSQL', postgres.lists);
}
console.log('\ntargets');
for (const target of targets) console.log(`  ${target}`);
