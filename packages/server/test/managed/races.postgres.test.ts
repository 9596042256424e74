// Managed and Support rules that two processes on one PostgreSQL could race: the unique credential
// label (create and rename), the account's one SSH key made on first read, and a ticket's close.
// (One file for both areas: each pair of server processes costs seconds to start.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServersOnOnePostgres, TOKENS } from '../harness/harness.js';

const json = async (answer: Response): Promise<any> => answer.json();
const headers = { authorization: `Bearer ${TOKENS.full.token}`, 'content-type': 'application/json' };
let pair: Awaited<ReturnType<typeof spawnServersOnOnePostgres>> | undefined;
let a: string;
let b: string;

beforeAll(async () => {
  pair = await spawnServersOnOnePostgres('supmgd-races');
  [a, b] = pair.urls as [string, string];
});
afterAll(() => pair?.stop());

const send = (base: string, method: string, path: string, body?: unknown) => fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });

describe('Managed and Support races on two processes', () => {
  it('the same credential label created on both at once: exactly one wins', async () => {
    for (let round = 0; round < 5; round++) {
      const label = `race-${round}`;
      const answers = await Promise.all([a, b].map((base) => send(base, 'POST', '/managed/credentials', { label, password: 'p' })));
      expect(answers.map((r) => r.status).sort(), label).toEqual([200, 400]);
      const loser = await json(answers.find((r) => r.status === 400)!);
      expect(loser.errors[0]).toMatchObject({ field: 'label' });
    }
  });

  it('two credentials renamed to the same label on both at once: exactly one wins', async () => {
    for (let round = 0; round < 5; round++) {
      const ids = await Promise.all([`x-${round}`, `y-${round}`].map(async (label) => (await json(await send(a, 'POST', '/managed/credentials', { label, password: 'p' }))).id));
      const label = `renamed-${round}`;
      const answers = await Promise.all([a, b].map((base, i) => send(base, 'PUT', `/managed/credentials/${ids[i]}`, { label })));
      expect(answers.map((r) => r.status).sort(), label).toEqual([200, 400]);
      expect((await json(answers.find((r) => r.status === 400)!)).errors[0]).toMatchObject({ field: 'label' });
    }
  });

  it('the SSH key read first on both at once: both get the one key', async () => {
    const answers = await Promise.all([a, b].map((base) => send(base, 'GET', '/managed/credentials/sshkey')));
    const keys = await Promise.all(answers.map(json));
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    expect(keys[0].ssh_key).toMatch(/^ssh-ed25519 /);
    expect(keys[1]).toEqual(keys[0]);
  });

  it('the same ticket closed on both at once: exactly one close wins', async () => {
    for (let round = 0; round < 10; round++) {
      const { id } = await json(await send(a, 'POST', '/support/tickets', { summary: `race ${round}`, description: 'x' }));
      const answers = await Promise.all([a, b].map((base) => send(base, 'POST', `/support/tickets/${id}/close`)));
      expect(answers.map((r) => r.status).sort(), `ticket ${id}`).toEqual([200, 400]);
      expect((await json(answers.find((r) => r.status === 400)!)).errors[0].reason).toMatch(/already closed/);
    }
  });
});
