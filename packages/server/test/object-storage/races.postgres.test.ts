// Object Storage races between two server processes on one PostgreSQL: the unique bucket label
// per cluster (buckets belong to the account), an object written while its bucket is deleted, one
// certificate per bucket. Each request pair is sent to both processes at once, for several rounds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServersOnOnePostgres, TOKENS } from '../harness/harness.js';

const as = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });
const full = as(TOKENS.full.token);
const other = as(TOKENS.noGrants.token); // another user of the account, every scope
let pair: Awaited<ReturnType<typeof spawnServersOnOnePostgres>> | undefined;
let a: string;
let b: string;

beforeAll(async () => {
  pair = await spawnServersOnOnePostgres('objstore-races');
  [a, b] = pair.urls as [string, string];
});
afterAll(() => pair?.stop());

const send = (base: string, method: string, path: string, headers: Record<string, string>, body?: unknown) =>
  fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
const createBucket = (base: string, headers: Record<string, string>, label: string) => send(base, 'POST', '/object-storage/buckets', headers, { label, cluster: 'us-east-1' });
const json = async (answer: Response | Promise<Response>): Promise<any> => (await answer).json();
const ROUNDS = 8;

describe('object storage races on one PostgreSQL', () => {
  it('a bucket label is unique within a cluster: two users of the account creating it on both at once get one bucket, both answered with it', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const label = `twice-${round}`;
      const answers = await Promise.all([createBucket(a, full, label), createBucket(b, other, label)]);
      expect(answers.map((r) => r.status), label).toEqual([200, 200]);
      const [first, second] = await Promise.all(answers.map((r) => json(r)));
      expect(second).toEqual(first);
    }
    const listed = await json(send(b, 'GET', '/object-storage/buckets/us-east-1', other));
    expect(listed.data.filter((bucket: any) => bucket.label.startsWith('twice-'))).toHaveLength(ROUNDS);
    // A label another account holds (data/sandbox.json) is refused by both processes.
    const held = await Promise.all([createBucket(a, full, 'backups'), createBucket(b, other, 'backups')]);
    for (const answer of held) expect((await json(answer)).errors).toEqual([{ field: 'label', reason: expect.stringMatching(/another owner/) }]);
  });

  it('a non-empty bucket cannot be deleted, even when its first object arrives during the delete', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const label = `racing-${round}`;
      expect((await createBucket(a, full, label)).status).toBe(200);
      // A URL made by one process is good on the other: the signing secret is in the database.
      const made = await json(send(a, 'POST', `/object-storage/buckets/us-east-1/${label}/object-url`, full, { name: 'late.txt', method: 'PUT', content_type: 'text/plain' }));
      const url = made.url.replace(a.replace(/\/v4$/, ''), b.replace(/\/v4$/, ''));
      const [put, deleted] = await Promise.all([
        fetch(url, { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: 'x' }),
        send(a, 'DELETE', `/object-storage/buckets/us-east-1/${label}`, full),
      ]);
      // Either the object came first and the delete was refused, or the delete won and the
      // object found no bucket: never an object left in a deleted bucket.
      expect([[200, 400], [404, 200]], `${label}: put ${put.status}, delete ${deleted.status}`).toContainEqual([put.status, deleted.status]);
      const bucket = await send(b, 'GET', `/object-storage/buckets/us-east-1/${label}`, full);
      if (deleted.status === 200) expect(bucket.status).toBe(404);
      else expect((await json(bucket)).objects).toBe(1);
    }
  });

  it('one certificate per bucket: two uploads at once, exactly one is installed', async () => {
    const certificate = { certificate: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n', private_key: '-----BEGIN PRIVATE KEY-----\nMC4C\n-----END PRIVATE KEY-----\n' };
    for (let round = 0; round < ROUNDS; round++) {
      const label = `tls-${round}`;
      expect((await createBucket(a, full, label)).status).toBe(200);
      const path = `/object-storage/buckets/us-east-1/${label}/ssl`;
      const answers = await Promise.all([send(a, 'POST', path, full, certificate), send(b, 'POST', path, full, certificate)]);
      expect(answers.map((r) => r.status).sort(), label).toEqual([200, 400]);
    }
  });
});
