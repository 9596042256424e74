// `kill -9` during a stream of creates: after a restart, every create that got a 2xx is there in
// full, and no volume is half-written (each carries both the tags it was created with).
import { afterAll, describe, expect, it } from 'vitest';
import { spawnServer, storeOptions, tempDir, TOKENS, writeTokensFile } from '../harness/harness.js';
import type { ServerProcess } from '../harness/harness.js';

const processes: ServerProcess[] = [];
afterAll(() => { for (const p of processes) if (p.child.exitCode === null) p.child.kill('SIGKILL'); });

const headers = { authorization: `Bearer ${TOKENS.full.token}`, 'content-type': 'application/json' };

describe('crash', () => {
  it('every create answered 2xx before kill -9 is there in full after a restart; nothing is half-written', async () => {
    const store = await storeOptions('crash');
    const env: Record<string, string> = { DATA_DIR: store.dataDir!, TOKENS_FILE: writeTokensFile(tempDir('crash-tokens')), ...(store.databaseUrl ? { DATABASE_URL: store.databaseUrl } : {}) };
    const first = spawnServer(env);
    processes.push(first);
    const baseUrl = await first.ready;

    const acknowledged: any[] = [];
    let sent = 0;
    let stop = false;
    const writer = async () => {
      while (!stop) {
        const label = `crash-${sent++}`;
        try {
          const answer = await fetch(`${baseUrl}/volumes`, { method: 'POST', headers, body: JSON.stringify({ label, region: 'us-east', size: 10 + (sent % 50), tags: ['crash-a', 'crash-b'] }) });
          if (answer.ok) acknowledged.push(await answer.json());
        } catch {
          return; // the server is gone
        }
      }
    };
    const writers = Array.from({ length: 8 }, writer);
    while (acknowledged.length < 100) await new Promise((r) => setTimeout(r, 5));
    first.child.kill('SIGKILL');
    stop = true;
    await Promise.all(writers);
    expect(await first.exited).toMatchObject({ signal: 'SIGKILL' });

    const second = spawnServer(env);
    processes.push(second);
    const again = await second.ready;
    for (const volume of acknowledged) {
      const answer = await fetch(`${again}/volumes/${volume.id}`, { headers });
      expect(answer.status, `volume ${volume.id} was acknowledged`).toBe(200);
      expect(await answer.json()).toEqual(volume);
    }
    const all: any[] = [];
    for (let page = 1; ; page++) {
      const body = (await (await fetch(`${again}/volumes?page=${page}`, { headers })).json()) as any;
      all.push(...body.data);
      if (page >= body.pages) break;
    }
    expect(all.length).toBeGreaterThanOrEqual(acknowledged.length);
    for (const volume of all) expect(volume.tags, `volume ${volume.id}`).toEqual(['crash-a', 'crash-b']);
    second.child.kill('SIGTERM');
    expect((await second.exited).code).toBe(0);
  });
});
