// The command line: usage, exit codes, one-line start-up failures, the generated token kept in
// DATA_DIR across restarts, and a clean stop on SIGINT/SIGTERM that lets requests in flight finish.
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { gzipSync } from 'node:zlib';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { binPath, requireBuilt, spawnServer, tempDir, TOKENS, writeTokensFile } from '../harness/harness.js';

const run = (args: string[], env: Record<string, string> = {}) => {
  requireBuilt();
  return spawnSync(process.execPath, [binPath, ...args], { encoding: 'utf8', env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn', ...env }, timeout: 60_000 });
};

/** Starts the server expecting it to fail; returns its stderr lines. */
const failure = (env: Record<string, string>) => {
  const result = run([], { DATA_DIR: tempDir('cli'), ...env });
  expect(result.status, result.stderr).toBe(1);
  const lines = result.stderr.trim().split('\n');
  expect(lines, result.stderr).toHaveLength(1);
  return lines[0]!;
};

describe('cloudapi-server command line', () => {
  it('--help prints the usage, with every setting, and exits 0', () => {
    const result = run(['--help']);
    expect(result.status).toBe(0);
    for (const name of ['PORT', 'HOST', 'DATA_DIR', 'DATABASE_URL', 'TOKENS_FILE', 'TRANSITION_MS', 'LOG_LEVEL', 'SANDBOX_DNS_PORT', 'CORS_ORIGINS']) expect(result.stdout).toContain(name);
  });

  it('an unknown flag prints the usage to stderr and exits 2', () => {
    const result = run(['--frobnicate']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/unknown option '--frobnicate'/);
    expect(result.stderr).toMatch(/Usage: cloudapi-server/);
  });

  it('a bad setting exits 2 naming it', () => {
    const result = run([], { PORT: 'eighty' });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/PORT must be an integer/);
  });

  it('a CORS origin that is not scheme, host and port exits 2 naming it', () => {
    const result = run([], { CORS_ORIGINS: 'http://127.0.0.1:8080,docs.example/path' });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/CORS origin "docs\.example\/path" must be a scheme, host and port only/);
  });

  it('a port in use (PORT or SANDBOX_DNS_PORT) stops start-up with one line and exit 1', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    try {
      expect(failure({ PORT: String(port) })).toMatch(new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use`));
      expect(failure({ SANDBOX_DNS_PORT: String(port) })).toMatch(new RegExp(`SANDBOX_DNS_PORT ${port} on 127\\.0\\.0\\.1 is already in use`));
    } finally {
      blocker.close();
    }
  });

  it('the sandbox name server listens on SANDBOX_DNS_PORT and serves the import example; SIGTERM stops it with the server', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as { port: number };
    await new Promise((resolve) => probe.close(resolve));
    const dir = tempDir('cli-sandbox');
    const server = spawnServer({ DATA_DIR: dir, TOKENS_FILE: writeTokensFile(dir), SANDBOX_DNS_PORT: String(port) });
    const baseUrl = await server.ready;
    await server.waitFor(new RegExp(`sandbox name server: 127\\.0\\.0\\.1:${port} \\(zone transfers of legacy\\.example`));
    const imported = await fetch(`${baseUrl}/domains/import`, { method: 'POST', headers: { authorization: `Bearer ${TOKENS.full.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ domain: 'legacy.example', remote_nameserver: 'ns1.legacy.example' }) });
    expect(imported.status, await imported.clone().text()).toBe(200);
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });

  it('a DATABASE_URL that cannot be reached stops start-up with one line and exit 1', () => {
    expect(failure({ DATABASE_URL: 'postgres://someone:secret@127.0.0.1:1/nothing' })).toMatch(/DATABASE_URL postgres:\/\/someone:\*\*\*@127\.0\.0\.1:1\/nothing cannot be reached/);
  });

  it('an unreadable or invalid TOKENS_FILE stops start-up with one line naming the entry, exit 1', () => {
    const dir = tempDir('cli-tokens');
    expect(failure({ TOKENS_FILE: path.join(dir, 'none.json') })).toMatch(/TOKENS_FILE .*none\.json cannot be read: ENOENT/);
    const bad = path.join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify([{ token: 'a', scopes: '*' }, { token: 'b', scopes: 'everything' }]));
    expect(failure({ TOKENS_FILE: bad })).toMatch(/entry 1: scopes: unknown scope "everything"/);
  });

  it('without TOKENS_FILE it makes one full-access token, prints it, and keeps it in DATA_DIR across restarts', async () => {
    const dataDir = tempDir('cli-token');
    const first = spawnServer({ DATA_DIR: dataDir });
    const baseUrl = await first.ready;
    const [, token] = await first.waitFor(/token: (\S+)/);
    expect(token).toMatch(/^[0-9a-f]{48}$/);
    const created = await fetch(`${baseUrl}/volumes`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ label: 'kept', region: 'us-east' }) });
    expect(created.status).toBe(200);
    const { id } = (await created.json()) as any;
    first.child.kill('SIGTERM');
    expect(await first.exited).toEqual({ code: 0, signal: null });

    const second = spawnServer({ DATA_DIR: dataDir });
    const secondUrl = await second.ready;
    expect((await second.waitFor(/token: (\S+)/))[1]).toBe(token);
    const read = await fetch(`${secondUrl}/volumes/${id}`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await read.json()) as any).label).toBe('kept');
    second.child.kill('SIGINT');
    expect(await second.exited).toEqual({ code: 0, signal: null });
  });

  it('SIGTERM lets a request in flight finish, then exits 0', async () => {
    const dir = tempDir('cli-drain');
    const server = spawnServer({ DATA_DIR: dir, TOKENS_FILE: writeTokensFile(dir) });
    const baseUrl = await server.ready;
    const started = await fetch(`${baseUrl}/images/upload`, { method: 'POST', headers: { authorization: `Bearer ${TOKENS.full.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ label: 'slow', region: 'us-east' }) });
    const { upload_to: uploadTo } = (await started.json()) as any;
    // An upload that is still sending its body when the signal comes.
    const data = gzipSync(Buffer.alloc(1024 * 1024, 1));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => { release = resolve; });
    const body = new ReadableStream({
      async start(controller) {
        controller.enqueue(data.subarray(0, 100));
        await gate;
        controller.enqueue(data.subarray(100));
        controller.close();
      },
    });
    const upload = fetch(uploadTo, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body, duplex: 'half' } as RequestInit);
    await new Promise((r) => setTimeout(r, 300));
    server.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    expect(server.child.exitCode).toBe(null);
    release();
    expect((await upload).status).toBe(200);
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(server.output()).toMatch(/stopped \(SIGTERM\)/);
  });
});
