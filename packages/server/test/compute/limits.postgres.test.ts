// Account-level limits under truly concurrent requests: two server processes on one PostgreSQL,
// each request of a burst sent to one or the other at once. The counts are held by row locks
// (the instance, or the region's lock row), so however the requests interleave the limit holds.
// Interfaces per instance (3) need no such test: one profile's interfaces are one array, which
// the schema bounds and a request replaces whole.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServersOnOnePostgres, TOKENS } from '../harness/harness.js';

const headers = { authorization: `Bearer ${TOKENS.full.token}`, 'content-type': 'application/json' };
let servers: Awaited<ReturnType<typeof spawnServersOnOnePostgres>>;
let urls: string[] = [];

beforeAll(async () => {
  servers = await spawnServersOnOnePostgres('compute-limits');
  urls = servers.urls;
});
afterAll(() => servers?.stop());

const send = (base: string, method: string, path: string, body?: unknown) => fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
const ok = async (answer: Promise<Response>) => {
  const response = await answer;
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return JSON.parse(text);
};
const post = (path: string, body: unknown, i = 0) => send(urls[i % 2]!, 'POST', path, body);
/** Sends every request at once, alternating between the two processes; answers the statuses, sorted. */
const burst = async (requests: [string, unknown][]) => {
  const answers = await Promise.all(requests.map(([path, body], i) => post(path, body, i)));
  return answers.map((a) => a.status).sort();
};
const deploy = (body: object = {}) => ok(post('/compute/instances', { region: 'us-east', type: 'g6-standard-2', image: 'compute/debian11', root_pass: 'correct-Horse-battery-staple-42', ...body }));
const volume = (label: string) => ok(post('/volumes', { label, region: 'us-east' }));

describe('account limits on two processes sharing one PostgreSQL', () => {
  it('VLANs per region: at most 10, with profiles and deploys adding new VLANs sent at once', async () => {
    const holder = await ok(post('/compute/instances', { region: 'ca-central', type: 'g6-standard-2' }));
    for (let n = 0; n < 9; n++) await ok(post(`/compute/instances/${holder.id}/configs`, { label: `c${n}`, devices: {}, interfaces: [{ purpose: 'vlan', label: `net-${n}` }] }));
    // Each request on an instance of its own, so only the region's lock can order them.
    const instances = [];
    for (let i = 0; i < 10; i++) instances.push(await ok(post('/compute/instances', { region: 'ca-central', type: 'g6-standard-2' })));
    const vlan = (label: string) => ({ label: 'new', devices: {}, interfaces: [{ purpose: 'vlan', label }] });
    for (let round = 0; round < 4; round++) {
      const requests: [string, unknown][] = instances.map((instance, i) => [`/compute/instances/${instance.id}/configs`, vlan(`new-${round}-${i}`)]);
      // The last round mixes in deploys that bring a new VLAN.
      if (round === 3) requests.splice(6, 4, ...[0, 1, 2, 3].map((i): [string, unknown] => ['/compute/instances', { region: 'ca-central', type: 'g6-standard-2', image: 'compute/debian11', root_pass: 'correct-Horse-battery-staple-42', interfaces: [{ purpose: 'vlan', label: `deploy-${i}` }] }]));
      const answers = await Promise.all(requests.map(([path, body], i) => post(path, body, i)));
      expect(answers.map((a) => a.status).sort(), `round ${round}`).toEqual([200, 400, 400, 400, 400, 400, 400, 400, 400, 400]);
      // The winner made the tenth VLAN; deleting its profile frees the place for the next round.
      const index = answers.findIndex((a) => a.status === 200);
      const winner = await answers[index]!.json() as { id: number };
      if (round < 3) await ok(send(urls[0]!, 'DELETE', `/compute/instances/${instances[index]!.id}/configs/${winner.id}`));
    }
    // An existing VLAN can still be used.
    await ok(post(`/compute/instances/${holder.id}/configs`, { label: 'reuse', devices: {}, interfaces: [{ purpose: 'vlan', label: 'net-0' }] }));
  });

  it('persistent volumes per instance: at most 8, with attaches and creates on the instance sent at once', async () => {
    const instance = await deploy();
    for (let i = 0; i < 5; i++) await ok(post('/volumes', { label: `held-${i}`, compute_id: instance.id }));
    const spare = [];
    for (let i = 0; i < 4; i++) spare.push(await volume(`spare-${i}`));
    const requests: [string, unknown][] = [
      ...spare.map((v): [string, unknown] => [`/volumes/${v.id}/attach`, { compute_id: instance.id }]),
      ...[0, 1, 2, 3].map((i): [string, unknown] => ['/volumes', { label: `new-${i}`, compute_id: instance.id }]),
    ];
    expect(await burst(requests)).toEqual([200, 200, 200, 400, 400, 400, 400, 400]);
    expect((await ok(send(urls[1]!, 'GET', `/compute/instances/${instance.id}/volumes`))).results).toBe(8);
  });

  it('volumes without persistence: at most the RAM in GB, with attaches sent at once', async () => {
    const instance = await deploy({ type: 'g6-standard-1' }); // 2 GB
    const volumes = [];
    for (let i = 0; i < 6; i++) volumes.push(await volume(`scratch-${i}`));
    expect(await burst(volumes.map((v) => [`/volumes/${v.id}/attach`, { compute_id: instance.id, persist_across_boots: false }]))).toEqual([200, 200, 400, 400, 400, 400]);
    expect((await ok(send(urls[0]!, 'GET', `/compute/instances/${instance.id}/volumes`))).results).toBe(2);
  });

  it('a volume attached to one instance twice at once is attached once', async () => {
    const [a, b] = [await deploy(), await deploy()];
    const v = await volume('contested');
    expect(await burst([[`/volumes/${v.id}/attach`, { compute_id: a.id }], [`/volumes/${v.id}/attach`, { compute_id: b.id }]])).toEqual([200, 400]);
  });
});
