// `npm start -- --no-build` (its script, scripts/start.mjs) on free ports with data of its own:
// the addresses it prints, its output, and a way to stop it.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const rootDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/** Starts it; resolves once it printed the three addresses and the token. */
export async function startAll(env = {}) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cloudapi-neighbours-'));
  const child = spawn(process.execPath, [path.join(rootDir, 'scripts/start.mjs'), '--no-build'], {
    cwd: rootDir,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', DOCS_PORT: '0', SERVER_PORT: '0', DATA_DIR: dataDir, TOKENS_FILE: '', DATABASE_URL: '', CORS_ORIGINS: '', ALLOWED_HOSTS: '', LOG_LEVEL: 'warn', TRANSITION_MS: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => { output += d; });
  child.stderr.on('data', (d) => { output += d; });
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  // Its data goes with it (npm start stops the server before it exits).
  exited.then(() => rmSync(dataDir, { recursive: true, force: true }));
  const started = Date.now();
  for (;;) {
    const docs = /✔ docs {2}(http:\/\/\S+)\//.exec(output)?.[1];
    const mock = /✔ mock {2}(http:\/\/\S+)/.exec(output)?.[1];
    const server = /✔ server {2}(http:\/\/\S+)/.exec(output)?.[1];
    const token = /token: ([0-9a-f]+)/.exec(output)?.[1];
    if (docs && mock && server && token) {
      return {
        docs, mock, server, token, child, exited,
        output: () => output,
        alive: () => child.exitCode === null && child.signalCode === null,
        async stop() {
          if (child.exitCode !== null || child.signalCode !== null) return exited;
          child.kill('SIGINT');
          return exited;
        },
      };
    }
    if (child.exitCode !== null) throw new Error(`npm start exited (${child.exitCode}) before serving:\n${output}`);
    if (Date.now() - started > 90_000) {
      child.kill('SIGKILL');
      throw new Error(`npm start printed no addresses within 90 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
