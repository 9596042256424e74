// @cloudapi/server: the reference implementation of the Cloud Account Management API.
// The published surface is deliberately narrow: the options a user sets and what a running server
// tells them. The store, the route table and the Fastify instance stay internal (tests in this
// package import them from ./server.js), so the declarations need nothing beyond Node's types.
import type { RunningServer, ServerOptions } from './options.js';
import { defaultDataDir, repositoryRoot, startServer as start, StartupError } from './server.js';

export { defaultDataDir, repositoryRoot, StartupError };
export type { RunningServer, ServerOptions };

/** Starts the reference server; resolves once it listens (its `/health` answers 200). */
export function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  return start(options);
}

/** For the bin and its tests: exits the process (code 1) after logging an error no handler caught, with the ids of the requests in flight. */
export { superviseProcess } from './supervise.js';
