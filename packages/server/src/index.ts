// @cloudapi/server: the reference implementation of the Cloud Account Management API.
export { startServer, StartupError, defaultDataDir, repositoryRoot } from './server.js';
export type { ServerOptions, RunningServer } from './server.js';
export { superviseProcess } from './supervise.js';
export type { Clock } from './core/clock.js';
