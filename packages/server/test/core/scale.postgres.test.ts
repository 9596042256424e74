// Two server processes on one PostgreSQL serve the same data (a write on one is seen by the next
// list read on the other, though each keeps the pages it rendered), and conflicting writes sent
// to both at once leave exactly one winner: the same unique tag label, and the same volume's last
// free state change (two resizes of one active volume to the same size).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServersOnOnePostgres, TOKENS } from '../harness/harness.js';

const headers = { authorization: `Bearer ${TOKENS.full.token}`, 'content-type': 'application/json' };
let pair: Awaited<ReturnType<typeof spawnServersOnOnePostgres>> | undefined;
let a: string;
let b: string;

beforeAll(async () => {
  pair = await spawnServersOnOnePostgres('scale');
  [a, b] = pair.urls as [string, string];
});
afterAll(() => pair?.stop());

const post = (base: string, path: string, body: unknown) => fetch(`${base}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
const json = async (answer: Response | Promise<Response>): Promise<any> => (await answer).json();

describe('two processes on one PostgreSQL', () => {
  it('serve the same data', async () => {
    const created = await json(post(a, '/volumes', { label: 'shared', region: 'us-east', tags: ['both'] }));
    const seen = await json(fetch(`${b}/volumes/${created.id}`, { headers }));
    expect(seen).toEqual(created);
    expect((await json(fetch(`${b}/tags/both`, { headers }))).results).toBe(1);
  });

  it('a write on one is seen by the next list read on the other, which keeps the pages it rendered', async () => {
    const listed = async (base: string) => json(fetch(`${base}/volumes?page_size=100`, { headers: { ...headers, 'x-filter': JSON.stringify({ label: { '+contains': 'listed' } }) } }));
    const volume = await json(post(a, '/volumes', { label: 'listed', region: 'us-east' }));
    const labels = (page: any) => page.data.map((v: any) => v.label).sort();
    // What is written on one process, and what the list shows once it is.
    const writes: [string, () => Promise<Response>, (page: any) => unknown, unknown][] = [
      ['create', () => post(a, '/volumes', { label: 'listed-too', region: 'us-east' }), labels, ['listed', 'listed-too']],
      ['update', () => fetch(`${a}/volumes/${volume.id}`, { method: 'PUT', headers, body: JSON.stringify({ label: 'listed-renamed' }) }), labels, ['listed-renamed', 'listed-too']],
      ['a tag put on it', () => post(a, '/tags', { label: 'listed-tag', volumes: [volume.id] }), (page) => page.data.find((v: any) => v.id === volume.id).tags, ['listed-tag']],
      ['delete', () => fetch(`${a}/volumes/${volume.id}`, { method: 'DELETE', headers }), (page) => page.data.some((v: any) => v.id === volume.id), false],
    ];
    for (const [name, write, seen, expected] of writes) {
      await listed(b);
      expect(seen(await listed(b)), `before ${name}`).not.toEqual(expected);
      expect((await write()).status, name).toBe(200);
      expect(seen(await listed(b)), `after ${name}, on the other process`).toEqual(expected);
      expect(seen(await listed(a)), `after ${name}, on the same process`).toEqual(expected);
    }
  });

  it('the same unique tag label created on both at once: exactly one wins', async () => {
    for (let round = 0; round < 12; round++) {
      const label = `race-${round}`;
      const answers = await Promise.all([post(a, '/tags', { label }), post(b, '/tags', { label })]);
      const statuses = answers.map((r) => r.status).sort();
      expect(statuses, label).toEqual([200, 400]);
      const loser = await json(answers.find((r) => r.status === 400)!);
      expect(loser.errors[0]).toMatchObject({ field: 'label', reason: expect.stringMatching(/already exists/) });
    }
  });

  it('the same resize of one volume sent to both at once: exactly one wins', async () => {
    for (let round = 0; round < 12; round++) {
      const volume = await json(post(a, '/volumes', { label: `grow-${round}`, region: 'us-east', size: 10 }));
      const answers = await Promise.all([post(a, `/volumes/${volume.id}/resize`, { size: 20 }), post(b, `/volumes/${volume.id}/resize`, { size: 20 })]);
      expect(answers.map((r) => r.status).sort(), `volume ${volume.id}`).toEqual([200, 400]);
    }
  });
});
