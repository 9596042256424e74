// `cloudapi-server` (`npm run server`): serves the reference implementation until SIGINT or
// SIGTERM. Settings come from the environment (the fixed interface) or the flags, flags first.
// Exit codes: 0 after a clean stop, 1 when start-up fails (one line says why) or an unexpected
// error stops it (logged with the ids of the requests in flight: src/supervise.ts), 2 for bad usage.
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { normalizeCorsOrigins } from './core/http/cors.js';
import { parseFaults, summarizeFaults } from '@cloudapi/spec/faults';
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

// --cors-origin may be repeated; CORS_ORIGINS holds several, comma-separated.
function corsOriginList(raw: string, previous: string[] | undefined): string[] {
  try {
    return [...(previous ?? []), ...normalizeCorsOrigins(raw.split(/[\s,]+/).filter(Boolean))];
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
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
  .addOption(new Option('--cors-origin <origin...>', 'also let pages of this origin call the server from a browser (CORS; the docs at http://127.0.0.1:8080 always may; * for any)').env('CORS_ORIGINS').argParser(corsOriginList))
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

const options = program.opts<{ port: number; host: string; dataDir: string; databaseUrl?: string; tokensFile?: string; transitionMs: number; logLevel: string; sandboxDnsPort: number; corsOrigin?: string[]; faults?: string; rateLimit?: string }>();
if (options.databaseUrl && !/^postgres(ql)?:\/\//.test(options.databaseUrl)) {
  console.error(`✖ cloudapi-server: DATABASE_URL must be a postgres:// URL (leave it unset to use SQLite in DATA_DIR)`);
  process.exit(1);
}

let server;
try {
  server = await startServer({ ...options, corsOrigins: options.corsOrigin, databaseUrl: options.databaseUrl || undefined, tokensFile: options.tokensFile || undefined });
} catch (error) {
  const message = error instanceof StartupError ? error.message : `unexpected failure: ${(error as Error).stack ?? error}`;
  console.error(`✖ cloudapi-server could not start: ${message}`);
  process.exit(1);
}

superviseProcess(server.app);

console.log(`cloudapi-server ${server.spec.version}: serving ${server.baseUrl} (store: ${server.store.engine}, ${server.store.location})`);
if (server.token) console.log(`token: ${server.token}`);
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
