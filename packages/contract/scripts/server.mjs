// Starts the reference server (packages/server) for a contract run: a fresh data directory, a
// tokens file made for the kit's scope checks, a free port on 127.0.0.1, states that advance at
// once (TRANSITION_MS=0); resolves when GET /health answers 200. Used by `npm run contract:server`
// and the benchmark.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const freePort = () => new Promise((resolve, reject) => {
  const server = createServer();
  server.on('error', reject);
  server.listen(0, '127.0.0.1', () => { const { port } = server.address(); server.close(() => resolve(port)); });
});

export async function startServer({ timeoutMs = 120_000, checkout = root } = {}) {
  const manifest = path.join(checkout, 'packages/server/package.json');
  if (!existsSync(manifest)) throw new Error('the reference server (packages/server) is not in this checkout');
  const { makeTokens, modelOperations, loadDocument } = await import('../dist/index.js');
  const { createSchemaViews } = await import('@cloudapi/spec/schema-views');
  const dir = mkdtempSync(path.join(tmpdir(), 'contract-server-'));
  const document = loadDocument();
  const tokensFile = path.join(dir, 'tokens.json');
  writeFileSync(tokensFile, JSON.stringify(makeTokens(modelOperations(document, createSchemaViews(document).resolve)), null, 2));
  const port = await freePort();
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8'));
  const command = typeof bin === 'string' ? bin : Object.values(bin ?? {})[0];
  if (!command) throw new Error('packages/server/package.json names no bin to start');
  const child = spawn(process.execPath, [path.join(checkout, 'packages/server', command)], {
    cwd: checkout, stdio: ['ignore', 'pipe', 'pipe'], detached: true,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', TOKENS_FILE: tokensFile, DATA_DIR: path.join(dir, 'data'), TRANSITION_MS: '0' },
  });
  let output = '';
  child.stdout.on('data', (d) => { output += d; });
  child.stderr.on('data', (d) => { output += d; });
  const stop = async () => {
    if (child.exitCode === null) {
      try { process.kill(-child.pid, 'SIGTERM'); } catch { /* already gone */ }
      await new Promise((resolve) => { const t = setTimeout(() => { try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ } resolve(); }, 5000); child.on('exit', () => { clearTimeout(t); resolve(); }); });
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) { await stop(); throw new Error(`the server exited with ${child.exitCode} before answering /health:\n${output}`); }
    try {
      const response = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(2000) });
      if (response.ok) break;
    } catch { /* not yet */ }
    if (Date.now() > deadline) { await stop(); throw new Error(`the server did not answer /health within ${timeoutMs} ms:\n${output}`); }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { baseUrl: `http://127.0.0.1:${port}/v4`, tokensFile, stop, output: () => output };
}
