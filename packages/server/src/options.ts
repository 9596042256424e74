// The settings a user gives the server and what a running server tells them: the published
// surface (src/index.ts). The internal options and handle (src/server.ts) extend these with what
// tests and the bin use (another clock, chosen areas; the store, the Fastify app, the sandbox), so
// the published declarations need no type of Fastify, Kysely or ours.

export interface ServerOptions {
  /** 0 picks a free port. Default 4020. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Where the SQLite file (and the generated token) live, kept 0700 with its files 0600 (narrowed on start when found wider). Default: `.data/server` at the repository root inside this repository, `.cloudapi/server` in the working folder once installed. */
  dataDir?: string;
  /** `postgres://…`: use PostgreSQL instead of SQLite. */
  databaseUrl?: string;
  /** A tokens file (`[{token, scopes, grants, restricted}]`); without it one full-access token is made and kept in `dataDir`. */
  tokensFile?: string;
  /** How long a transitional state lasts (ms); 0 makes it immediate. Default 2000. */
  transitionMs?: number;
  /** pino level: fatal, error, warn, info, debug, trace, silent. Default info. */
  logLevel?: string;
  /** Where log lines (JSON, one per line) go; default standard output. */
  logStream?: NodeJS.WritableStream;
  /** Another bundle file (default @cloudapi/spec's `openapi.json`). */
  bundleFile?: string;
  /** PostgreSQL connections of this process (default 10). */
  poolSize?: number;
  /** Origins whose pages may call the server from a browser (CORS; none by default; `*` for any, never with credentials). Naming `http://localhost:P` trusts `http://127.0.0.1:P` and `http://[::1]:P` too. */
  corsOrigins?: string[];
  /** ALLOWED_HOSTS: Host names answered besides IP addresses, localhost and names under `.localhost` (`.example.com` for a domain and its subdomains); any other Host is refused (403). */
  allowedHosts?: string[];
  /** The port of the sandbox's name server on 127.0.0.1 (default 0: a free one). */
  sandboxDnsPort?: number;
  /** FAULTS: injected latency, 429, 503 and cut connections (`latency=<ms>[~<jitter>],429=<share>,…`); off when absent. */
  faults?: string;
  /** RATE_LIMIT: `<n>/<seconds>s` per token (per address for public operations); off when absent. */
  rateLimit?: string;
}

export interface RunningServer {
  /** `http://127.0.0.1:4020` */
  url: string;
  /** `http://127.0.0.1:4020/v4` */
  baseUrl: string;
  port: number;
  /** The generated token, when no tokens file was given. */
  token: string | null;
  /** Where the generated token is kept. */
  tokenFile: string | null;
  /** What the start changed or warns about: files it found readable by others and narrowed, a TOKENS_FILE readable by others. */
  notices: string[];
  /** Which engine holds the rows, and where (the SQLite file, or the PostgreSQL URL without its password). */
  store: { engine: string; location: string };
  /** Finishes the requests in flight, then closes the sandbox's name server and the store. */
  close(): Promise<void>;
}
