// The Domains rules two requests could race, sent at once to two server processes on one
// PostgreSQL: exactly one wins each time. A domain name is unique in SQL; the rules among a
// domain's records (a CNAME's name, a null MX alone) are checked with the domain's row locked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServersOnOnePostgres, TOKENS } from '../harness/harness.js';

const headers = { authorization: `Bearer ${TOKENS.full.token}`, 'content-type': 'application/json' };
let pair: Awaited<ReturnType<typeof spawnServersOnOnePostgres>> | undefined;
let a: string;
let b: string;

beforeAll(async () => {
  pair = await spawnServersOnOnePostgres('domains-races');
  [a, b] = pair.urls as [string, string];
});
afterAll(() => pair?.stop());

const post = (base: string, path: string, body: unknown) => fetch(`${base}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
const ROUNDS = 8;

async function newDomain(name: string): Promise<number> {
  const answer = await post(a, '/domains', { domain: name, type: 'master', soa_email: `admin@${name}` });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { id: number }).id;
}

async function oneWins(answers: Response[], field: string, label: string): Promise<void> {
  expect(answers.map((r) => r.status).sort(), label).toEqual([200, 400]);
  const loser = (await answers.find((r) => r.status === 400)!.json()) as { errors: { field?: string }[] };
  expect(loser.errors.map((e) => e.field), label).toEqual([field]);
}

describe('domains on two processes sharing one PostgreSQL', () => {
  it('the same domain created on both at once: exactly one wins (unique across the platform)', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const domain = `race-${round}.example`;
      const body = { domain, type: 'master', soa_email: `admin@${domain}` };
      await oneWins(await Promise.all([post(a, '/domains', body), post(b, '/domains', body)]), 'domain', domain);
    }
  });

  it('a CNAME and another record of the same name sent at once: exactly one wins (a CNAME name must be unique)', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const id = await newDomain(`cname-${round}.example`);
      const answers = await Promise.all([
        post(a, `/domains/${id}/records`, { type: 'CNAME', name: 'www', target: 'other.example' }),
        post(b, `/domains/${id}/records`, { type: 'A', name: 'www', target: '192.0.2.1' }),
      ]);
      await oneWins(answers, 'name', `round ${round}`);
    }
  });

  it('a null MX and another MX sent at once: exactly one wins (a null MX is the only MX)', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const id = await newDomain(`nullmx-${round}.example`);
      const answers = await Promise.all([
        post(a, `/domains/${id}/records`, { type: 'MX', name: '', target: '' }),
        post(b, `/domains/${id}/records`, { type: 'MX', name: 'mail', target: 'mx.other.example', priority: 10 }),
      ]);
      expect(answers.map((r) => r.status).sort(), `round ${round}`).toEqual([200, 400]);
    }
  });
});
