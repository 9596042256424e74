// A ticket close that two processes on one PostgreSQL race: of two closes at once, one wins.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServersOnOnePostgres, TOKENS } from '../support/harness.js';

const json = async (answer: Response): Promise<any> => answer.json();
const headers = { authorization: `Bearer ${TOKENS.full.token}`, 'content-type': 'application/json' };
let pair: Awaited<ReturnType<typeof spawnServersOnOnePostgres>> | undefined;

beforeAll(async () => {
  pair = await spawnServersOnOnePostgres('support-races');
});
afterAll(() => pair?.stop());

describe('support races on two processes', () => {
  it('the same ticket closed on both at once: exactly one close wins', async () => {
    const [a, b] = pair!.urls as [string, string];
    for (let round = 0; round < 10; round++) {
      const opened = await fetch(`${a}/support/tickets`, { method: 'POST', headers, body: JSON.stringify({ summary: `race ${round}`, description: 'x' }) });
      const { id } = await json(opened);
      const answers = await Promise.all([a, b].map((base) => fetch(`${base}/support/tickets/${id}/close`, { method: 'POST', headers })));
      expect(answers.map((r) => r.status).sort(), `ticket ${id}`).toEqual([200, 400]);
      expect((await json(answers.find((r) => r.status === 400)!)).errors[0].reason).toMatch(/already closed/);
    }
  });
});
