// Balancer rules two requests could race, sent to two server processes on one PostgreSQL at once:
// each has exactly one winner, the loser a 400 naming the field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServersOnOnePostgres, TOKENS } from '../harness/harness.js';

const headers = { authorization: `Bearer ${TOKENS.full.token}`, 'content-type': 'application/json' };
let pair: Awaited<ReturnType<typeof spawnServersOnOnePostgres>> | undefined;
let a: string;
let b: string;

beforeAll(async () => {
  pair = await spawnServersOnOnePostgres('balancer-races');
  [a, b] = pair.urls as [string, string];
});
afterAll(() => pair?.stop());

const send = (method: string, base: string, path: string, body: unknown) => fetch(`${base}${path}`, { method, headers, body: JSON.stringify(body) });
const json = async (answer: Response | Promise<Response>): Promise<any> => (await answer).json();

/** Both answers: one 200, one 400 naming `field`. */
async function oneWinner(answers: Response[], field: string, what: string): Promise<void> {
  expect(answers.map((r) => r.status).sort(), what).toEqual([200, 400]);
  const loser = await json(answers.find((r) => r.status === 400)!);
  expect(loser.errors[0].field, what).toBe(field);
}

describe('balancer races on two processes', () => {
  it('a port used twice on one balancer: of two configs created at once on the same port, exactly one wins', async () => {
    const balancer = await json(send('POST', a, '/balancers', { region: 'us-east' }));
    for (let round = 0; round < 10; round++) {
      const port = 1000 + round;
      await oneWinner(await Promise.all([a, b].map((base) => send('POST', base, `/balancers/${balancer.id}/configs`, { port }))), 'port', `port ${port}`);
    }
    expect((await json(fetch(`${b}/balancers/${balancer.id}/configs`, { headers }))).results).toBe(10);
  });

  it('a port used twice on one balancer: of two configs moved to the same port at once, exactly one wins', async () => {
    const balancer = await json(send('POST', a, '/balancers', { region: 'us-east' }));
    for (let round = 0; round < 10; round++) {
      const [x, y] = await Promise.all([2000, 3000].map((p) => json(send('POST', a, `/balancers/${balancer.id}/configs`, { port: p + round }))));
      const port = 4000 + round;
      await oneWinner(await Promise.all([[a, x], [b, y]].map(([base, config]) => send('PUT', base, `/balancers/${balancer.id}/configs/${config.id}`, { port }))), 'port', `port ${port}`);
    }
  });

  it('the label is unique on the account: of two balancers created at once with one label, exactly one wins', async () => {
    for (let round = 0; round < 10; round++) {
      const label = `race-${round}`;
      await oneWinner(await Promise.all([a, b].map((base) => send('POST', base, '/balancers', { region: 'us-east', label }))), 'label', label);
    }
  });
});
