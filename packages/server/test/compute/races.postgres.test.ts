// Compute rules that two server processes on one PostgreSQL could race: at most five concurrent
// clones of one source (sent to both processes at once), and a state change (two boots of one
// offline instance at once: one boots, the other finds it booting). Transitions last a minute,
// so the clones and the boot are still running while the others arrive.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresUrl, spawnServer, tempDir, TOKENS, writeTokensFile } from '../harness/harness.js';
import type { ServerProcess } from '../harness/harness.js';

const headers = { authorization: `Bearer ${TOKENS.full.token}`, 'content-type': 'application/json' };
let processes: ServerProcess[] = [];
let urls: string[] = [];

beforeAll(async () => {
  const databaseUrl = await postgresUrl('compute-races');
  const tokensFile = writeTokensFile(tempDir('compute-races-tokens'));
  processes = [0, 1].map((i) => spawnServer({ DATA_DIR: tempDir(`compute-races-${i}`), DATABASE_URL: databaseUrl, TOKENS_FILE: tokensFile, TRANSITION_MS: '60000' }));
  urls = await Promise.all(processes.map((p) => p.ready));
});
afterAll(async () => {
  for (const p of processes) if (p.child.exitCode === null) p.child.kill('SIGTERM');
  await Promise.all(processes.map((p) => p.exited));
});

const post = (base: string, path: string, body: unknown = {}) => fetch(`${base}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
const created = async (answer: Promise<Response>) => {
  const response = await answer;
  expect(response.status).toBe(200);
  return response.json() as Promise<any>;
};

describe('compute races on two processes sharing one PostgreSQL', () => {
  it('at most five concurrent clones from one source: the sixth is a 400, however the requests are spread', async () => {
    // Each process clones once first (another source), so that the burst meets warm processes.
    const warmUp = await created(post(urls[0]!, '/compute/instances', { region: 'us-east', type: 'g6-nanode-1' }));
    for (const url of urls) await created(post(url, `/compute/instances/${warmUp.id}/clone`, { region: 'us-east', type: 'g6-nanode-1' }));
    const source = await created(post(urls[0]!, '/compute/instances', { region: 'us-east', type: 'g6-nanode-1' }));
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => post(urls[i % 2]!, `/compute/instances/${source.id}/clone`, { region: 'us-east', type: 'g6-nanode-1' })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 400, 400, 400, 400, 400, 400, 400]);
    const refusal = await answers.find((a) => a.status === 400)!.json() as any;
    expect(refusal.errors[0].reason).toMatch(/at most 5/);
  });

  it('two boots of one offline instance at once: exactly one starts it', async () => {
    for (let round = 0; round < 4; round++) {
      const instance = await created(post(urls[0]!, '/compute/instances', { region: 'us-east', type: 'g6-nanode-1' }));
      await created(post(urls[1]!, `/compute/instances/${instance.id}/configs`, { label: 'boot', devices: {} }));
      const answers = await Promise.all(urls.map((url) => post(url, `/compute/instances/${instance.id}/boot`)));
      expect(answers.map((a) => a.status).sort(), `round ${round}`).toEqual([200, 400]);
    }
  });
});
