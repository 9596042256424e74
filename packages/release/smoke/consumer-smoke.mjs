// The consumer smoke: run inside a folder that holds only the installed tarballs, on whatever Node
// runs it (the release test on Node 20, scripts/node-matrix.mjs on 22 and 24 as well).
//   1. `cloudapi-server` (the installed bin) on a free port, its data in the working folder:
//      GET /v4/regions answers 200, a volume create with the printed token answers 200, SIGINT
//      stops it with exit 0.
//      The installed `cloudapi` command line creates and lists volumes on it.
//   2. The installed mock, called with the installed client.
//   3. The installed contract kit against the installed mock (`--only Regions`) keeps the contract,
//      through `cloudapi-mock --run`, writing its reports (out/report.json, out/junit.xml).
// Prints one JSON line of what it saw; exits 1 with the reason on the first failure.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createClient } from '@cloudapi/client';
import { startMock } from '@cloudapi/mock';

const bin = (name) => path.join(process.cwd(), 'node_modules', '.bin', name);
const seen = { node: process.version };

function fail(message) {
  console.error(`✖ consumer smoke on Node ${process.version}: ${message}`);
  process.exit(1);
}

/** Starts a bin with this Node; resolves with the child once `ready` matches its output. */
function startBin(name, args, ready, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin(name), ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const timer = setTimeout(() => reject(new Error(`${name} did not get ready in 60 s:\n${output}`)), 60_000);
    const read = (chunk) => {
      output += chunk;
      const match = ready.exec(output);
      if (match) { clearTimeout(timer); resolve({ child, match, output: () => output }); }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', (chunk) => { output += chunk; });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`${name} exited ${code} before it was ready:\n${output}`)); });
  });
}

function runBin(name, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin(name), ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => { output += chunk; });
    child.stderr.on('data', (chunk) => { output += chunk; });
    child.on('exit', (code) => resolve({ code, output }));
  });
}

// 1. The installed reference server.
// No DATA_DIR: the installed server's default (.cloudapi/server in the working folder) is checked.
delete process.env.DATA_DIR;
const server = await startBin('cloudapi-server', ['--port', '0', '--log-level', 'warn'], /serving (http:\/\/\S+\/v4)[\s\S]*token: (\S+)/, { TRANSITION_MS: '0' })
  .catch((error) => fail(error.message));
const [, baseUrl, token] = server.match;
const regions = await fetch(`${baseUrl}/regions`);
if (regions.status !== 200) fail(`GET /v4/regions answered ${regions.status}`);
const created = await fetch(`${baseUrl}/volumes`, {
  method: 'POST',
  headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  body: JSON.stringify({ label: 'smoke-volume', region: 'us-east', size: 20 }),
});
if (created.status !== 200) fail(`POST /v4/volumes with the printed token answered ${created.status}: ${await created.text()}`);
seen.server = { regions: regions.status, create: created.status, volume: (await created.json()).label };
if (!existsSync(path.join(process.cwd(), '.cloudapi', 'server'))) fail('the server kept no data in .cloudapi/server under the working folder');
// The installed command line against it.
const cliEnv = { CLOUDAPI_TOKEN: token, CLOUDAPI_BASE_URL: baseUrl, XDG_CONFIG_HOME: path.join(process.cwd(), '.config') };
const cliCreate = await runBin('cloudapi', ['volumes', 'create', '--label', 'smoke-cli', '--region', 'us-east', '--size', '20', '--json'], cliEnv);
if (cliCreate.code !== 0) fail(`cloudapi volumes create exited ${cliCreate.code}:\n${cliCreate.output}`);
const cliList = await runBin('cloudapi', ['volumes', 'list', '--json'], cliEnv);
if (cliList.code !== 0) fail(`cloudapi volumes list --json exited ${cliList.code}:\n${cliList.output}`);
const listed = JSON.parse(cliList.output).map((volume) => volume.label).sort();
if (!listed.includes('smoke-cli') || !listed.includes('smoke-volume')) fail(`cloudapi volumes list --json lists ${listed.join(', ')}`);
seen.cli = { listed };
const stopped = new Promise((resolve) => server.child.on('exit', resolve));
server.child.kill('SIGINT');
const serverExit = await stopped;
if (serverExit !== 0) fail(`cloudapi-server exited ${serverExit} on SIGINT:\n${server.output()}`);
seen.server.exit = serverExit;

// 2. The installed mock and client.
const mock = await startMock({ port: 0, host: '127.0.0.1', watch: false });
try {
  const { data, error } = await createClient({ baseUrl: mock.baseUrl }).GET('/regions');
  if (error !== undefined || !data?.data?.length) fail(`the client's GET /regions on the mock failed: ${JSON.stringify(error)}`);
  seen.mock = { regions: data.data.length };
} finally {
  await mock.stop();
}

// 3. The installed kit against the installed mock.
const kit = await runBin('cloudapi-mock', ['--port', '0', '--no-standby', '--no-watch', '--run',
  `"${process.execPath}" "${bin('cloudapi-contract')}" --base-url "$MOCK_BASE_URL" --only Regions --examples 1 --json out/report.json --junit out/junit.xml`]);
const summary = /success validated (\d+)\/(\d+)(?: \(\d+ of \d+ operations selected\))?/.exec(kit.output);
if (kit.code !== 0 || !summary || summary[1] !== summary[2]) fail(`the contract kit against the mock exited ${kit.code}:\n${kit.output.slice(-3000)}`);
seen.kit = summary[0];

console.log(JSON.stringify(seen));
