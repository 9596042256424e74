// Supervision (src/supervise.ts, installed by cloudapi-server): an error nothing caught is logged
// with the ids of the requests in flight, and the process exits with status 1 (never silently,
// never 0). The server here is the built package in a process of its own, stopped by an error
// thrown outside any handler while a request is half-received.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { packageDir, requireBuilt, tempDir, writeTokensFile } from '../harness/harness.js';

const children: ReturnType<typeof spawn>[] = [];
afterAll(() => { for (const child of children) if (child.exitCode === null) child.kill('SIGKILL'); });

const script = (dir: string) => `
  import { startServer, superviseProcess } from ${JSON.stringify(pathToFileURL(path.join(packageDir, 'dist/index.js')).href)};
  const server = await startServer({ port: 0, dataDir: ${JSON.stringify(dir)}, tokensFile: ${JSON.stringify(writeTokensFile(dir))}, logLevel: 'silent', transitionMs: 0 });
  superviseProcess(server.app);
  process.on('SIGUSR2', () => setImmediate(() => { throw new Error('a bug outside any handler'); }));
  console.log('serving ' + server.baseUrl);
`;

describe('supervision', () => {
  it('an unexpected error is logged with the request id in flight, and the process exits 1', async () => {
    requireBuilt();
    const child = spawn(process.execPath, ['--input-type=module', '-e', script(tempDir('supervision'))], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let output = '';
    child.stdout!.on('data', (d) => { output += d; });
    child.stderr!.on('data', (d) => { output += d; });
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    while (!/serving (\S+)/.test(output)) {
      if (child.exitCode !== null) throw new Error(output);
      await new Promise((r) => setTimeout(r, 20));
    }
    const { port } = new URL(/serving (\S+)/.exec(output)![1]!);
    // A create whose body has not all arrived: in flight when the error comes.
    const { connect } = await import('node:net');
    const socket = connect({ host: '127.0.0.1', port: Number(port) });
    await new Promise((r) => socket.once('connect', r));
    socket.write(`POST /v4/volumes HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer test-full-access\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"label":`);
    await new Promise((r) => setTimeout(r, 300));
    child.kill('SIGUSR2');
    expect(await exited).toBe(1);
    socket.destroy();
    expect(output).toMatch(/unexpected error while serving request [0-9a-f-]{36} \(POST \/v4\/volumes\); exiting with status 1/);
    expect(output).toMatch(/a bug outside any handler/);
  });
});
