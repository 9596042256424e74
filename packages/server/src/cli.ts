// `cloudapi-server` (`npm run server`): serves the reference implementation until SIGINT or
// SIGTERM. Settings come from the environment (the fixed interface) or the flags, flags first.
// Exit codes: 0 after a clean stop, 1 when start-up fails (one line says why) or an unexpected
// error stops it (logged with the ids of the requests in flight: src/supervise.ts), 2 for bad usage.
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { parseFaults, summarizeFaults } from '@cloudapi/spec/faults';
import { exposureNotice, parseAllowedHosts, parseCorsOrigins } from '@cloudapi/spec/trust';
import { defaultDataDir, startServer, StartupError } from './server.js';
import { superviseProcess } from './supervise.js';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function integer(name: string, min: number, max: number) {
  return (raw: string) => {
    const value = Number(raw);
    if (!/^\d+$/.test(raw.trim()) || !Number.isInteger(value) || value < min || value > max) {
      throw new InvalidArgumentError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
    }
    return value;
  };
}

// --cors-origin and --allowed-host may be repeated; CORS_ORIGINS and ALLOWED_HOSTS hold several, comma-separated.
function listOf(parse: (raw: string) => string[]) {
  return (raw: string, previous: string[] | undefined): string[] => {
    try {
      return [...(previous ?? []), ...parse(raw)];
    } catch (error) {
      throw new InvalidArgumentError((error as Error).message);
    }
  };
}

const program = new Command('cloudapi-server')
  .description('The reference implementation of the Cloud Account Management API, on an embedded SQLite file or PostgreSQL.')
  .addOption(new Option('--port <port>', 'port to listen on; 0 picks a free one').env('PORT').default(4020).argParser(integer('PORT', 0, 65535)))
  .addOption(new Option('--host <address>', 'address to listen on').env('HOST').default('127.0.0.1'))
  .addOption(new Option('--data-dir <dir>', 'where the SQLite database and the generated token live').env('DATA_DIR').default(defaultDataDir(), '.data/server at the repository root; .cloudapi/server in the working folder once installed'))
  .addOption(new Option('--database-url <url>', 'postgres://… : use this PostgreSQL server instead of SQLite').env('DATABASE_URL'))
  .addOption(new Option('--tokens-file <file>', 'JSON list of tokens [{token, scopes, grants, restricted}]; without it one full-access token is made').env('TOKENS_FILE'))
  .addOption(new Option('--transition-ms <ms>', 'how long a transitional state lasts (creating, resizing...); 0: at once').env('TRANSITION_MS').default(2000).argParser(integer('TRANSITION_MS', 0, 86_400_000)))
  .addOption(new Option('--log-level <level>', 'log level').env('LOG_LEVEL').default('info').choices(LOG_LEVELS))
  .addOption(new Option('--cors-origin <origin...>', 'let pages of this origin call the server from a browser (CORS; none by default, npm start adds its docs; localhost and 127.0.0.1 of one port go together; * for any)').env('CORS_ORIGINS').argParser(listOf(parseCorsOrigins)))
  .addOption(new Option('--allowed-host <name...>', 'also answer requests whose Host is this name (IP addresses, localhost and *.localhost always; .example.com for a domain)').env('ALLOWED_HOSTS').argParser(listOf(parseAllowedHosts)))
  .addOption(new Option('--sandbox-dns-port <port>', 'port of the sandbox\'s name server on 127.0.0.1 (zone transfers of its remote zones); 0 picks a free one').env('SANDBOX_DNS_PORT').default(0).argParser(integer('SANDBOX_DNS_PORT', 0, 65535)))
  .addOption(new Option('--faults <setting>', 'inject faults: latency=<ms>[~<jitter>],429=<share>,503=<share>,drop=<share>,seed=<n>,ops=<operationId>|…').env('FAULTS'))
  .addOption(new Option('--rate-limit <n/secs>', 'rate limit per token (per address for public operations), e.g. 100/60s').env('RATE_LIMIT'))
  .showHelpAfterError()
  .exitOverride()
  .configureOutput({ writeErr: (text) => process.stderr.write(text) });

try {
  program.parse(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // --help and --version exit 0; anything else is bad usage.
    process.exit(error.exitCode === 0 ? 0 : 2);
  }
  throw error;
}

const options = program.opts<{ port: number; host: string; dataDir: string; databaseUrl?: string; tokensFile?: string; transitionMs: number; logLevel: string; sandboxDnsPort: number; corsOrigin?: string[]; allowedHost?: string[]; faults?: string; rateLimit?: string }>();
if (options.databaseUrl && !/^postgres(ql)?:\/\//.test(options.databaseUrl)) {
  console.error(`✖ cloudapi-server: DATABASE_URL must be a postgres:// URL (leave it unset to use SQLite in DATA_DIR)`);
  process.exit(1);
}

let server;
try {
  server = await startServer({ ...options, corsOrigins: options.corsOrigin, allowedHosts: options.allowedHost, databaseUrl: options.databaseUrl || undefined, tokensFile: options.tokensFile || undefined });
} catch (error) {
  const message = error instanceof StartupError ? error.message : `unexpected failure: ${(error as Error).stack ?? error}`;
  console.error(`✖ cloudapi-server could not start: ${message}`);
  process.exit(1);
}

superviseProcess(server.app);

console.log(`cloudapi-server ${server.spec.version}: serving ${server.baseUrl} (store: ${server.store.engine}, ${server.store.location})`);
if (server.token) console.log(`token: ${server.token}`);
for (const notice of server.notices) console.log(`⚠ ${notice}`);
const exposure = exposureNotice(options.host, { allowedHosts: options.allowedHost ?? [], what: 'the server' });
if (exposure) console.log(`⚠ ${exposure}`);
if (options.faults) console.log(`faults: ${summarizeFaults(parseFaults(options.faults))} (answers carry x-fault)`);
if (options.rateLimit) console.log(`rate limit: ${options.rateLimit} per token (per address for public operations)`);
console.log(`sandbox name server: 127.0.0.1:${server.sandbox.dnsPort} (zone transfers of ${[...server.sandbox.world.zones.keys()].join(', ')})`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    server.close().then(
      () => { console.log(`cloudapi-server: stopped (${signal})`); process.exit(0); },
      (error) => { console.error(`✖ cloudapi-server: stopping failed: ${(error as Error).message}`); process.exit(1); },
    );
  });
}
