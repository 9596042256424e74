#!/usr/bin/env node
// `npm run mock`: serves the API's mock (Prism behind the front layer) until Ctrl-C, or with
// --proxy validates the traffic to a real implementation. See packages/mock/README.md.
//
// Exit status: 0 stopped by Ctrl-C/SIGTERM; 1 Prism could not be kept running (the cause is
// printed), or --proxy saw violations, or the --run command failed; 2 bad usage.
import { spawn } from 'node:child_process';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { parseFaults, summarizeFaults } from '@cloudapi/spec/faults';
import { DEFAULT_MAX_BODY, parseSize } from '../src/body.mjs';
import { exposureNotice, parseAllowedHosts, parseCorsOrigins } from '@cloudapi/spec/trust';

function portNumber(value) {
  const port = Number(value);
  if (!/^\d+$/.test(String(value).trim()) || port > 65535) throw new InvalidArgumentError('It must be an integer from 0 to 65535.');
  return port;
}
function size(value) {
  try { return parseSize(value); } catch (error) { throw new InvalidArgumentError(error.message); }
}
function faultSetting(value) {
  try { parseFaults(value); } catch (error) { throw new InvalidArgumentError(error.message); }
  return value;
}
function url(value) {
  try { new URL(value); } catch { throw new InvalidArgumentError('It must be a URL such as http://127.0.0.1:4020/v4.'); }
  return value;
}

// --cors-origin and --allowed-host may be repeated; CORS_ORIGINS and ALLOWED_HOSTS hold several, comma-separated.
const listOf = (parse) => (value, previous) => {
  try {
    return [...(previous ?? []), ...parse(value)];
  } catch (error) {
    throw new InvalidArgumentError(error.message);
  }
};

const program = new Command('cloudapi-mock')
  .description('Serves the mock of the Cloud Account Management API (Prism, behind a front layer that keeps it answering) under /v4.\nWith --proxy, stands in front of a real implementation instead and checks every request and response against the spec.')
  .addOption(new Option('--port <port>', 'port to listen on; 0 picks a free one').env('PORT').default(4010).argParser(portNumber))
  .addOption(new Option('--host <address>', 'address to listen on').env('HOST').default('127.0.0.1'))
  .option('--dynamic', 'answer with data generated from the schemas instead of the examples')
  .option('--seed <value>', 'with --dynamic: the same generated data on every start')
  .option('--max-body <size>', `largest request body accepted, e.g. 512KiB or 2MiB (default: ${DEFAULT_MAX_BODY / 1024 / 1024}MiB)`, size)
  .option('--proxy <url>', "forward every request to this implementation (its base URL, e.g. http://127.0.0.1:4020/v4) and validate requests and responses on the way; violations are printed, one line each, and counted when it stops", url)
  .option('--errors', 'with --proxy: a violation fails the answer (400 for a request, 502 for a response) instead of only being printed')
  .option('--run <command>', 'start, run this shell command with MOCK_URL and MOCK_BASE_URL set, then stop; exit with its status (or 1 if --proxy saw violations)')
  .addOption(new Option('--faults <setting>', 'inject faults: latency=<ms>[~<jitter>],429=<share>,503=<share>,drop=<share>,seed=<n>,ops=<operationId>|… (answers carry x-fault)').env('FAULTS').argParser(faultSetting))
  .option('--no-watch', 'do not serve a rewritten mock document without a restart')
  .addOption(new Option('--cors-origin <origin...>', 'let pages of this origin call the mock from a browser (CORS; none by default, npm start adds its docs; localhost and 127.0.0.1 of one port go together; * for any)').env('CORS_ORIGINS').argParser(listOf(parseCorsOrigins)))
  .addOption(new Option('--allowed-host <name...>', 'also answer requests whose Host is this name (IP addresses, localhost and *.localhost always; .example.com for a domain)').env('ALLOWED_HOSTS').argParser(listOf(parseAllowedHosts)))
  .option('--no-standby', 'do not keep a second Prism ready to take over at once if the first dies (saves about 130 MB)')
  .addHelpText('after', `
Environment: PORT and HOST as --port and --host, CORS_ORIGINS and ALLOWED_HOSTS (comma-separated) as --cors-origin
and --allowed-host, FAULTS as --faults.
Exit status: 0 stopped by Ctrl-C or SIGTERM; 1 Prism could not be kept running (the cause is
printed), --proxy saw violations, or the --run command failed; 2 bad usage.

Examples:
  cloudapi-mock                                    # http://127.0.0.1:4010/v4
  cloudapi-mock --dynamic --seed 42
  cloudapi-mock --proxy http://127.0.0.1:4020/v4 --port 4011
  cloudapi-mock --proxy http://127.0.0.1:4020/v4 --port 0 --run 'npm run contract -- --base-url "$MOCK_BASE_URL"'`)
  .showHelpAfterError()
  .configureOutput({ outputError: (text, write) => write(text) })
  .exitOverride();

let options;
try {
  program.parse();
  options = program.opts();
  const usage = (message) => { throw new CommanderError(2, 'cloudapi-mock.usage', `error: ${message}`); };
  if (options.seed !== undefined && !options.dynamic) usage('--seed needs --dynamic');
  if (options.errors && !options.proxy) usage('--errors needs --proxy (the mock always refuses what breaks the spec)');
  if (options.dynamic && options.proxy) usage('--dynamic and --proxy exclude each other: the implementation answers through the proxy');
} catch (error) {
  if (!(error instanceof CommanderError)) throw error;
  if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') process.exit(0);
  if (error.code === 'cloudapi-mock.usage') process.stderr.write(`${error.message}\n\n${program.helpInformation()}`);
  process.exit(2);
}

// Loaded once the arguments are known good: --help and usage errors answer at once.
const { startMock } = await import('../src/index.mjs');
let mock;
try {
  mock = await startMock({
    port: options.port, host: options.host, dynamic: Boolean(options.dynamic), seed: options.seed, proxy: options.proxy, errors: Boolean(options.errors),
    maxBody: options.maxBody, watch: options.watch, standby: options.standby, corsOrigins: options.corsOrigin ?? [], allowedHosts: options.allowedHost ?? [],
    faults: options.faults,
  });
} catch (error) {
  console.error(`✖ the mock did not start: ${error.message}`);
  process.exit(1);
}

const what = options.proxy ? `validating proxy in front of ${options.proxy}` : `mock of the API (${options.dynamic ? 'dynamic' : 'examples'})`;
console.log(`✔ ${what} listening at ${mock.baseUrl} (Prism: pid ${mock.prismPid}${options.standby ? ', with a standby' : ''})`);
if (options.faults) console.log(`  faults: ${summarizeFaults(parseFaults(options.faults))} (answers carry x-fault)`);
const exposure = exposureNotice(options.host, { allowedHosts: options.allowedHost ?? [], what: 'the mock' });
if (exposure) console.log(`  ⚠ ${exposure}`);

let stopping = false;
async function finish(status) {
  if (stopping) return;
  stopping = true;
  await mock.stop();
  let code = status;
  if (options.proxy) {
    const s = mock.stats();
    console.log(`proxy: ${s.exchanges} exchanges; ${s.violations} violations (${s.responseViolations} in responses, ${s.acceptedInvalid} invalid requests accepted); ${s.refusedInvalid} invalid requests refused as they should be; ${s.unanswered} not answered`);
    if (s.violations > 0 && code === 0) code = 1;
  }
  process.exit(code);
}

mock.failed.then((error) => {
  process.exitCode = 1; // whatever happens next, this process does not end with 0
  console.error(`✖ the mock stopped: ${error.message}`);
  if (!stopping) { stopping = true; mock.stop().finally(() => process.exit(1)); }
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => finish(0));

if (options.run) {
  const child = spawn(options.run, { shell: true, stdio: 'inherit', env: { ...process.env, MOCK_URL: mock.url, MOCK_BASE_URL: mock.baseUrl } });
  child.on('exit', (code, signal) => finish(code ?? (signal ? 1 : 0)));
} else {
  console.log(options.proxy ? '  every violation is printed on stderr; Ctrl-C stops it and prints the count.' : `  try: curl -s ${mock.baseUrl}/regions\n  Ctrl-C stops it.`);
}
