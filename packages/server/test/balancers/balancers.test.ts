// Balancers: one test per rule of the requirements (and of the spec's decisions) for balancers,
// their configs and nodes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testClock } from '../harness/harness.js';
import type { TestServer } from '../harness/harness.js';

let t: TestServer;
const clock = testClock(0);

beforeAll(async () => {
  t = await startTestServer({ name: 'balancers', clock });
});
afterAll(() => t?.close());

// A self-signed test certificate (CN www.example.org) and its key: test data, not a secret.
const CERT = `
-----BEGIN CERTIFICATE-----
MIIBijCCATGgAwIBAgIUT+JbMcxjsQz4+hFSLQR6+7z/Vh0wCgYIKoZIzj0EAwIw
GjEYMBYGA1UEAwwPd3d3LmV4YW1wbGUub3JnMCAXDTI2MTEyMzE5MTQxMloYDzIx
MjYxMDMwMTkxNDEyWjAaMRgwFgYDVQQDDA93d3cuZXhhbXBsZS5vcmcwWTATBgcq
hkjOPQIBBggqhkjOPQMBBwNCAAQmLn4dqkSbMOyQryE6kZjAFeqPQZD7qM/xg/ht
f8Mp3dcLOLHLQ4S0d2OMZ8xVZg8FCJa59Td0jA1D0T5KscPYo1MwUTAdBgNVHQ4E
FgQUqWDo4yaqmPzvz57vxVKduYDhEVUwHwYDVR0jBBgwFoAUqWDo4yaqmPzvz57v
xVKduYDhEVUwDwYDVR0TAQH/BAUwAwEB/zAKBggqhkjOPQQDAgNHADBEAiBnk2iF
Nf/hGfwe4MvN06btOYgead+5j5TAc+Z5cs2ZFQIgEZFpyLjuk5k5C+Vw72w6zt8t
4O+K52a2GP2D9sDVASY=
-----END CERTIFICATE-----
`.trimStart();
const KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgk4EjJSwlJPCrR2hz
a6do9oHXg+DPY7ITXbt38vaTrNahRANCAAQmLn4dqkSbMOyQryE6kZjAFeqPQZD7
qM/xg/htf8Mp3dcLOLHLQ4S0d2OMZ8xVZg8FCJa59Td0jA1D0T5KscPY
-----END PRIVATE KEY-----
`;
const CERT_SHA256 = '6E:10:B2:C6:32:01:F7:C2:55:0A:10:AA:E8:1D:EC:E1:D5:57:0A:42:70:FD:34:B9:07:51:54:66:24:3C:A5:5B';

const api = () => t.as('full');
let serial = 0;
const uniqueLabel = (prefix: string) => `${prefix}-${++serial}`;
const fields = (answer: { body: any }): string[] => [...new Set<string>((answer.body.errors ?? []).map((e: any) => e.field))];
const node = (n: number, extra: object = {}) => ({ address: `192.168.0.${n}:80`, label: `node-${n}`, ...extra });

async function ok(answer: Promise<{ status: number; body: any; text: string }>) {
  const a = await answer;
  expect(a.status, a.text).toBe(200);
  return a.body;
}

const createBalancer = (body: object = {}) => ok(api().post('/balancers', { region: 'us-east', label: uniqueLabel('lb'), ...body }));
const createConfig = (balancerId: number, body: object = {}) => ok(api().post(`/balancers/${balancerId}/configs`, body));
const createNode = (b: number, c: number, body: object) => ok(api().post(`/balancers/${b}/configs/${c}/nodes`, body));
const nodesOf = async (b: number, c: number) => (await ok(api().get(`/balancers/${b}/configs/${c}/nodes`))).data;

describe('balancers', () => {
  it('the region must exist and offer balancers', async () => {
    for (const region of ['mars-north', 'eu-central']) {
      const refused = await api().post('/balancers', { region });
      expect(refused.status).toBe(400);
      expect(refused.body.errors[0]).toMatchObject({ field: 'region', reason: expect.stringContaining(region) });
    }
    expect((await createBalancer({ region: 'eu-west' })).region).toBe('eu-west');
  });

  it('a new balancer gets a label when none is given, public addresses, a hostname, no transfer and no tags', async () => {
    const balancer = await ok(api().post('/balancers', { region: 'us-west' }));
    expect(balancer).toMatchObject({ label: `balancer${balancer.id}`, region: 'us-west', client_conn_throttle: 0, transfer: { in: 0, out: 0, total: 0 }, tags: [] });
    expect(balancer.ipv4).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(balancer.hostname).toContain(balancer.ipv4.replaceAll('.', '-'));
    expect(await ok(api().get(`/balancers/${balancer.id}`))).toEqual(balancer);
  });

  it('the label is unique on the account', async () => {
    const first = await createBalancer();
    const again = await api().post('/balancers', { region: 'us-east', label: first.label });
    expect(again.status).toBe(400);
    expect(again.body.errors[0]).toMatchObject({ field: 'label', reason: expect.stringMatching(/already exists/) });
    const other = await createBalancer();
    const renamed = await api().put(`/balancers/${other.id}`, { label: first.label });
    expect(renamed.status).toBe(400);
    expect(fields(renamed)).toEqual(['label']);
    expect((await ok(api().get(`/balancers/${other.id}`))).label).toBe(other.label);
  });

  it('client_conn_throttle is 0..20', async () => {
    const refused = await api().post('/balancers', { region: 'us-east', client_conn_throttle: 21 });
    expect(refused.status).toBe(400);
    expect(fields(refused)).toContain('client_conn_throttle');
    const balancer = await createBalancer({ client_conn_throttle: 20 });
    expect((await ok(api().put(`/balancers/${balancer.id}`, { client_conn_throttle: 5 }))).client_conn_throttle).toBe(5);
  });

  it('configs sent with a new balancer are created with their nodes', async () => {
    const balancer = await createBalancer({ configs: [{ port: 80, nodes: [node(1), node(2)] }, { port: 8080, protocol: 'tcp', nodes: [node(3)] }] });
    const configs = (await ok(api().get(`/balancers/${balancer.id}/configs`))).data;
    expect(configs.map((c: any) => [c.port, c.protocol])).toEqual([[80, 'http'], [8080, 'tcp']]);
    expect((await nodesOf(balancer.id, configs[0].id)).map((n: any) => n.label)).toEqual(['node-1', 'node-2']);
    expect((await nodesOf(balancer.id, configs[1].id)).map((n: any) => n.address)).toEqual(['192.168.0.3:80']);
  });

  it('each config of a new balancer has a unique port: a repeat is a 400 and nothing is created', async () => {
    const before = (await ok(api().get('/balancers'))).results;
    const label = uniqueLabel('twice');
    const refused = await api().post('/balancers', { region: 'us-east', label, configs: [{ port: 443, protocol: 'https', ssl_cert: CERT, ssl_key: KEY, nodes: [node(1)] }, { port: 443, nodes: [node(2)] }] });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toMatchObject({ field: 'configs.1.port', reason: expect.stringContaining('443') });
    expect((await ok(api().get('/balancers'))).results).toBe(before);
    expect((await createBalancer({ label })).label).toBe(label);
  });

  it('each config of a new balancer has at least one node', async () => {
    const refused = await api().post('/balancers', { region: 'us-east', configs: [{ port: 80, nodes: [] }] });
    expect(refused.status).toBe(400);
    expect(fields(refused)).toContain('configs.0.nodes');
  });

  it('tags are set by an update, not on create, and replace the list', async () => {
    const refused = await api().post('/balancers', { region: 'us-east', tags: ['x'] });
    expect(refused.status).toBe(400);
    const balancer = await createBalancer();
    expect((await ok(api().put(`/balancers/${balancer.id}`, { tags: ['web', 'prod'] }))).tags).toEqual(['prod', 'web']);
    expect((await ok(api().put(`/balancers/${balancer.id}`, { tags: ['web'] }))).tags).toEqual(['web']);
    expect((await ok(api().get(`/balancers/${balancer.id}`))).tags).toEqual(['web']);
  });

  it('tags reach balancers: POST /tags with balancer ids, tagged objects of type balancer', async () => {
    const balancer = await createBalancer();
    const tag = uniqueLabel('lbtag');
    await ok(api().post('/tags', { label: tag, balancers: [balancer.id] }));
    const tagged = await ok(api().get(`/tags/${tag}`));
    expect(tagged.data).toEqual([{ type: 'balancer', data: await ok(api().get(`/balancers/${balancer.id}`)) }]);
    const missing = await api().post('/tags', { label: uniqueLabel('none'), balancers: [9_999_999] });
    expect(missing.status).toBe(400);
    expect(fields(missing)).toEqual(['balancers.0']);
    await ok(api().delete(`/balancers/${balancer.id}`));
    expect((await ok(api().get(`/tags/${tag}`))).results).toBe(0);
  });

  it('tagging a balancer through POST /tags needs read_write on it: a user holds it on the balancers it created', async () => {
    const own = await ok(t.as('noGrants').post('/balancers', { region: 'us-east' }));
    const other = await createBalancer();
    const refused = await t.as('noGrants').post('/tags', { label: uniqueLabel('theirs'), balancers: [own.id, other.id] });
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0]).toMatchObject({ field: 'balancers.1' });
    const tag = uniqueLabel('mine');
    await ok(t.as('noGrants').post('/tags', { label: tag, balancers: [own.id] }));
    expect((await ok(api().get(`/balancers/${own.id}`))).tags).toEqual([tag]);
  });

  it('configs are given on create only: an update refuses them', async () => {
    const balancer = await createBalancer();
    const refused = await api().put(`/balancers/${balancer.id}`, { configs: [{ port: 80, nodes: [node(1)] }] });
    expect(refused.status).toBe(400);
    expect(fields(refused)).toContain('configs');
  });

  it('transfer sent in an update is ignored: the response shows the measured transfer', async () => {
    const balancer = await createBalancer();
    const updated = await ok(api().put(`/balancers/${balancer.id}`, { transfer: { in: 5, out: 6, total: 11 }, label: uniqueLabel('moved') }));
    expect(updated.transfer).toEqual({ in: 0, out: 0, total: 0 });
  });

  it('the region cannot be changed', async () => {
    const balancer = await createBalancer();
    const refused = await api().put(`/balancers/${balancer.id}`, { region: 'us-west' });
    expect(refused.status).toBe(400);
    expect(fields(refused)).toContain('region');
  });

  it('deleting a balancer deletes its configs and nodes; its addresses are not given to a new balancer', async () => {
    const balancer = await createBalancer({ configs: [{ port: 80, nodes: [node(1)] }] });
    const [config] = (await ok(api().get(`/balancers/${balancer.id}/configs`))).data;
    const [first] = await nodesOf(balancer.id, config.id);
    await ok(api().delete(`/balancers/${balancer.id}`));
    expect((await api().get(`/balancers/${balancer.id}`)).status).toBe(404);
    expect((await api().get(`/balancers/${balancer.id}/configs/${config.id}`)).status).toBe(404);
    expect((await api().get(`/balancers/${balancer.id}/configs/${config.id}/nodes/${first.id}`)).status).toBe(404);
    expect((await api().delete(`/balancers/${balancer.id}`)).status).toBe(404);
    const next = await createBalancer();
    expect(next.ipv4).not.toBe(balancer.ipv4);
    expect(next.ipv6).not.toBe(balancer.ipv6);
  });

  it('balancer statistics cover the past 24 hours, oldest first, in [time, value] pairs', async () => {
    const balancer = await createBalancer();
    const fresh = await ok(api().get(`/balancers/${balancer.id}/stats`));
    expect(fresh.data.connections.length).toBeLessThanOrEqual(1);
    clock.advance(2 * 3_600_000);
    const later = await ok(api().get(`/balancers/${balancer.id}/stats`));
    const series = [later.data.connections, later.data.traffic.in, later.data.traffic.out];
    for (const s of series) expect(s.length).toBeGreaterThanOrEqual(24);
    const times = later.data.connections.map(([time]: number[]) => time);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times[0]).toBeGreaterThanOrEqual(Date.parse(`${balancer.created}Z`));
    clock.advance(48 * 3_600_000);
    const old = await ok(api().get(`/balancers/${balancer.id}/stats`));
    const first = old.data.connections[0][0];
    const last = old.data.connections.at(-1)[0];
    expect(last - first).toBeLessThanOrEqual(24 * 3_600_000);
    expect(old.data.connections.length).toBe(288);
    expect((await api().get('/balancers/9999999/stats')).status).toBe(404);
  });
});

describe('balancer configs', () => {
  it('a port used twice on one balancer is a 400 naming port', async () => {
    const balancer = await createBalancer();
    await createConfig(balancer.id, { port: 8080 });
    const twice = await api().post(`/balancers/${balancer.id}/configs`, { port: 8080 });
    expect(twice.status).toBe(400);
    expect(twice.body.errors[0]).toMatchObject({ field: 'port', reason: expect.stringContaining('8080') });
    const other = await createConfig(balancer.id, { port: 8081 });
    const moved = await api().put(`/balancers/${balancer.id}/configs/${other.id}`, { port: 8080 });
    expect(moved.status).toBe(400);
    expect(fields(moved)).toEqual(['port']);
    expect((await ok(api().get(`/balancers/${balancer.id}/configs/${other.id}`))).port).toBe(8081);
    const elsewhere = await createBalancer();
    expect((await createConfig(elsewhere.id, { port: 8080 })).port).toBe(8080);
  });

  it('a new config without fields is http on port 80 with proxy_protocol none and the service defaults', async () => {
    const balancer = await createBalancer();
    const config = await createConfig(balancer.id);
    expect(config).toMatchObject({ balancer_id: balancer.id, port: 80, protocol: 'http', proxy_protocol: 'none', algorithm: 'roundrobin', ssl_cert: null, ssl_key: null, ssl_commonname: '', ssl_fingerprint: '', nodes_status: { up: 0, down: 0 } });
  });

  it('https requires ssl_cert and ssl_key', async () => {
    const balancer = await createBalancer();
    const refused = await api().post(`/balancers/${balancer.id}/configs`, { port: 443, protocol: 'https' });
    expect(refused.status).toBe(400);
    expect(fields(refused)).toEqual(expect.arrayContaining(['ssl_cert']));
    const keyless = await api().post(`/balancers/${balancer.id}/configs`, { port: 443, protocol: 'https', ssl_cert: CERT });
    expect(keyless.status).toBe(400);
    const http = await createConfig(balancer.id, { port: 444 });
    const toHttps = await api().put(`/balancers/${balancer.id}/configs/${http.id}`, { protocol: 'https' });
    expect(toHttps.status).toBe(400);
    expect(fields(toHttps)).toEqual(['ssl_cert']);
    expect((await ok(api().put(`/balancers/${balancer.id}/configs/${http.id}`, { protocol: 'https', ssl_cert: CERT, ssl_key: KEY }))).protocol).toBe('https');
    const cleared = await api().put(`/balancers/${balancer.id}/configs/${http.id}`, { ssl_cert: null, ssl_key: null });
    expect(cleared.status).toBe(400);
    expect(fields(cleared)).toEqual(['ssl_cert']);
  });

  it('http and tcp do not take ssl_cert or ssl_key, and switching to them removes the certificate', async () => {
    const balancer = await createBalancer();
    for (const protocol of ['http', 'tcp', undefined]) {
      const refused = await api().post(`/balancers/${balancer.id}/configs`, { port: 80, protocol, ssl_cert: CERT, ssl_key: KEY });
      expect(refused.status, String(protocol)).toBe(400);
    }
    const http = await createConfig(balancer.id, { port: 81 });
    const certOnHttp = await api().put(`/balancers/${balancer.id}/configs/${http.id}`, { ssl_cert: CERT, ssl_key: KEY });
    expect(certOnHttp.status).toBe(400);
    expect(fields(certOnHttp)).toEqual(['ssl_cert']);
    const https = await createConfig(balancer.id, { port: 443, protocol: 'https', ssl_cert: CERT, ssl_key: KEY });
    const tcp = await ok(api().put(`/balancers/${balancer.id}/configs/${https.id}`, { protocol: 'tcp' }));
    expect(tcp).toMatchObject({ protocol: 'tcp', ssl_cert: null, ssl_key: null, ssl_commonname: '', ssl_fingerprint: '' });
    const backToHttps = await api().put(`/balancers/${balancer.id}/configs/${https.id}`, { protocol: 'https' });
    expect(backToHttps.status).toBe(400);
  });

  it('ssl_cert and ssl_key never come back in clear: <REDACTED> in their place, the common name and fingerprint derived', async () => {
    const balancer = await createBalancer({ configs: [{ port: 443, protocol: 'https', ssl_cert: CERT, ssl_key: KEY, nodes: [node(1)] }] });
    const path = `/balancers/${balancer.id}/configs`;
    const list = await api().get(path);
    const config = list.body.data[0];
    const secretLine = KEY.split('\n')[1]!;
    const certLine = CERT.split('\n')[1]!;
    const answers = [
      list,
      await api().get(`${path}/${config.id}`),
      await api().put(`${path}/${config.id}`, { check: 'connection' }),
      await api().post(`${path}/${config.id}/rebuild`, { nodes: [node(2)] }),
      await api().post(path, { port: 8443, protocol: 'https', ssl_cert: CERT, ssl_key: KEY }),
    ];
    for (const answer of answers) {
      expect(answer.status, answer.text).toBe(200);
      expect(answer.text).not.toContain(secretLine);
      expect(answer.text).not.toContain(certLine);
      const shown = answer.body.data?.[0] ?? answer.body;
      expect(shown).toMatchObject({ ssl_cert: '<REDACTED>', ssl_key: '<REDACTED>', ssl_commonname: 'www.example.org', ssl_fingerprint: CERT_SHA256 });
    }
  });

  it('http_cookie stickiness needs http or https', async () => {
    const balancer = await createBalancer();
    const refused = await api().post(`/balancers/${balancer.id}/configs`, { port: 80, protocol: 'tcp', stickiness: 'http_cookie' });
    expect(refused.status).toBe(400);
    expect(fields(refused)).toContain('stickiness');
    const cookie = await createConfig(balancer.id, { port: 80, stickiness: 'http_cookie' });
    const toTcp = await api().put(`/balancers/${balancer.id}/configs/${cookie.id}`, { protocol: 'tcp' });
    expect(toTcp.status).toBe(400);
    expect(fields(toTcp)).toEqual(['stickiness']);
    const tcp = await createConfig(balancer.id, { port: 81, protocol: 'tcp' });
    const cookieOnTcp = await api().put(`/balancers/${balancer.id}/configs/${tcp.id}`, { stickiness: 'http_cookie' });
    expect(cookieOnTcp.status).toBe(400);
    expect(fields(cookieOnTcp)).toEqual(['stickiness']);
  });

  it('an update changes only the fields sent; the create defaults do not apply', async () => {
    const balancer = await createBalancer();
    const config = await createConfig(balancer.id, { port: 90, protocol: 'tcp', algorithm: 'source', proxy_protocol: 'v2' });
    const updated = await ok(api().put(`/balancers/${balancer.id}/configs/${config.id}`, { check_attempts: 5 }));
    expect(updated).toMatchObject({ port: 90, protocol: 'tcp', algorithm: 'source', proxy_protocol: 'v2', check_attempts: 5 });
  });

  it('a config belongs to its balancer: another balancer\'s config is not found', async () => {
    const a = await createBalancer();
    const b = await createBalancer();
    const config = await createConfig(a.id);
    expect((await api().get(`/balancers/${b.id}/configs/${config.id}`)).status).toBe(404);
    expect((await api().put(`/balancers/${b.id}/configs/${config.id}`, { port: 1 })).status).toBe(404);
    expect((await api().delete(`/balancers/${b.id}/configs/${config.id}`)).status).toBe(404);
    expect((await api().post('/balancers/9999999/configs', {})).status).toBe(404);
  });

  it('deleting a config deletes its nodes and frees its port', async () => {
    const balancer = await createBalancer();
    const config = await createConfig(balancer.id, { port: 7000, nodes: [node(1)] });
    const [first] = await nodesOf(balancer.id, config.id);
    await ok(api().delete(`/balancers/${balancer.id}/configs/${config.id}`));
    expect((await api().get(`/balancers/${balancer.id}/configs/${config.id}/nodes/${first.id}`)).status).toBe(404);
    expect((await api().get(`/balancers/${balancer.id}/configs/${config.id}/nodes`)).status).toBe(404);
    expect((await createConfig(balancer.id, { port: 7000 })).port).toBe(7000);
  });
});

describe('balancer nodes', () => {
  it('a node address is a private IPv4 address with a port', async () => {
    const balancer = await createBalancer();
    const config = await createConfig(balancer.id);
    for (const address of ['8.8.8.8:80', '192.168.0.1', '172.32.0.1:80', '10.0.0.1:0', '10.0.0.1:65536', '[fd00::1]:80', '11.0.0.1:80']) {
      const refused = await api().post(`/balancers/${balancer.id}/configs/${config.id}/nodes`, { address, label: 'bad' });
      expect(refused.status, address).toBe(400);
      expect(fields(refused), address).toEqual(['address']);
    }
    for (const address of ['10.1.2.3:8080', '172.16.0.1:1', '172.31.255.255:65535', '192.168.210.120:80']) {
      expect((await createNode(balancer.id, config.id, { address, label: 'good' })).address).toBe(address);
    }
    const [some] = await nodesOf(balancer.id, config.id);
    const moved = await api().put(`/balancers/${balancer.id}/configs/${config.id}/nodes/${some.id}`, { address: '1.1.1.1:80' });
    expect(fields(moved)).toEqual(['address']);
  });

  it('a node needs address and label; mode and weight have defaults; port beside address is ignored', async () => {
    const balancer = await createBalancer();
    const config = await createConfig(balancer.id);
    const refused = await api().post(`/balancers/${balancer.id}/configs/${config.id}/nodes`, { address: '10.0.0.1:80' });
    expect(fields(refused)).toContain('label');
    const created = await createNode(balancer.id, config.id, { address: '10.0.0.1:80', label: 'web', port: 9999 });
    expect(created).toMatchObject({ address: '10.0.0.1:80', label: 'web', mode: 'accept', weight: 100, config_id: config.id, balancer_id: balancer.id });
    const drained = await ok(api().put(`/balancers/${balancer.id}/configs/${config.id}/nodes/${created.id}`, { mode: 'drain', weight: 7 }));
    expect(drained).toMatchObject({ address: '10.0.0.1:80', label: 'web', mode: 'drain', weight: 7 });
  });

  it('a node is Unknown until its config first checks it, then UP; the config counts its nodes up and down', async () => {
    const balancer = await createBalancer();
    const config = await createConfig(balancer.id);
    clock.transitionMs = 60_000;
    let created;
    try {
      created = await createNode(balancer.id, config.id, node(1));
      expect(created.status).toBe('Unknown');
      expect((await ok(api().get(`/balancers/${balancer.id}/configs/${config.id}`))).nodes_status).toEqual({ up: 0, down: 0 });
      clock.advance(60_001);
      expect((await ok(api().get(`/balancers/${balancer.id}/configs/${config.id}/nodes/${created.id}`))).status).toBe('UP');
      expect((await ok(api().get(`/balancers/${balancer.id}/configs/${config.id}`))).nodes_status).toEqual({ up: 1, down: 0 });
      const moved = await ok(api().put(`/balancers/${balancer.id}/configs/${config.id}/nodes/${created.id}`, { address: '10.9.9.9:80' }));
      expect(moved.status).toBe('Unknown');
      const relabelled = await ok(api().put(`/balancers/${balancer.id}/configs/${config.id}/nodes/${created.id}`, { label: 'renamed' }));
      expect(relabelled.status).toBe('Unknown');
      clock.advance(60_001);
    } finally {
      clock.transitionMs = 0;
    }
    expect((await ok(api().get(`/balancers/${balancer.id}/configs/${config.id}/nodes/${created.id}`))).status).toBe('UP');
  });

  it('a node belongs to its config: another config\'s node is not found', async () => {
    const balancer = await createBalancer();
    const a = await createConfig(balancer.id, { port: 1 });
    const b = await createConfig(balancer.id, { port: 2 });
    const created = await createNode(balancer.id, a.id, node(1));
    expect((await api().get(`/balancers/${balancer.id}/configs/${b.id}/nodes/${created.id}`)).status).toBe(404);
    expect((await api().delete(`/balancers/${balancer.id}/configs/${b.id}/nodes/${created.id}`)).status).toBe(404);
    await ok(api().delete(`/balancers/${balancer.id}/configs/${a.id}/nodes/${created.id}`));
    expect(await nodesOf(balancer.id, a.id)).toEqual([]);
  });

  it('rebuild: omitted nodes are deleted, nodes with id updated, nodes without id created', async () => {
    const balancer = await createBalancer();
    const config = await createConfig(balancer.id, { port: 80, nodes: [node(1), node(2), node(3)] });
    const [keep, drop, change] = await nodesOf(balancer.id, config.id);
    const rebuilt = await ok(api().post(`/balancers/${balancer.id}/configs/${config.id}/rebuild`, {
      algorithm: 'leastconn',
      nodes: [{ id: keep.id }, { id: change.id, weight: 9, mode: 'backup' }, node(4)],
    }));
    expect(rebuilt).toMatchObject({ id: config.id, port: 80, algorithm: 'leastconn' });
    const after = await nodesOf(balancer.id, config.id);
    expect(after.map((n: any) => n.id)).not.toContain(drop.id);
    expect(after.find((n: any) => n.id === keep.id)).toEqual(keep);
    expect(after.find((n: any) => n.id === change.id)).toMatchObject({ label: change.label, address: change.address, weight: 9, mode: 'backup' });
    expect(after.filter((n: any) => ![keep.id, change.id].includes(n.id))).toEqual([expect.objectContaining({ address: '192.168.0.4:80', label: 'node-4' })]);
  });

  it('rebuild needs at least one node, and a new node needs address and label', async () => {
    const balancer = await createBalancer();
    const config = await createConfig(balancer.id, { nodes: [node(1)] });
    const empty = await api().post(`/balancers/${balancer.id}/configs/${config.id}/rebuild`, { nodes: [] });
    expect(empty.status).toBe(400);
    expect(fields(empty)).toContain('nodes');
    const labelless = await api().post(`/balancers/${balancer.id}/configs/${config.id}/rebuild`, { nodes: [{ address: '10.0.0.1:80' }] });
    expect(labelless.status).toBe(400);
    expect(fields(labelless).some((f: string) => f.startsWith('nodes.0'))).toBe(true);
    expect(await nodesOf(balancer.id, config.id)).toHaveLength(1);
  });

  it('rebuild with an id that is not a node of the config, or listed twice, is a 400 and changes nothing', async () => {
    const balancer = await createBalancer();
    const config = await createConfig(balancer.id, { port: 80, nodes: [node(1)] });
    const other = await createConfig(balancer.id, { port: 81, nodes: [node(2)] });
    const [mine] = await nodesOf(balancer.id, config.id);
    const [theirs] = await nodesOf(balancer.id, other.id);
    const foreign = await api().post(`/balancers/${balancer.id}/configs/${config.id}/rebuild`, { port: 82, nodes: [node(5), { id: theirs.id }] });
    expect(foreign.status).toBe(400);
    expect(fields(foreign)).toEqual(['nodes.1.id']);
    const twice = await api().post(`/balancers/${balancer.id}/configs/${config.id}/rebuild`, { port: 82, nodes: [{ id: mine.id }, { id: mine.id, weight: 3 }] });
    expect(fields(twice)).toEqual(['nodes.1.id']);
    expect(await nodesOf(balancer.id, config.id)).toEqual([mine]);
    expect((await ok(api().get(`/balancers/${balancer.id}/configs/${config.id}`))).port).toBe(80);
  });

  it('rebuild keeps the config rules: a port in use is a 400 naming port and nothing changes', async () => {
    const balancer = await createBalancer();
    const config = await createConfig(balancer.id, { port: 80, nodes: [node(1)] });
    await createConfig(balancer.id, { port: 81 });
    const [mine] = await nodesOf(balancer.id, config.id);
    const refused = await api().post(`/balancers/${balancer.id}/configs/${config.id}/rebuild`, { port: 81, nodes: [node(7)] });
    expect(refused.status).toBe(400);
    expect(fields(refused)).toEqual(['port']);
    expect(await nodesOf(balancer.id, config.id)).toEqual([mine]);
  });

  it('the node view needs balancers:read_write', async () => {
    const balancer = await createBalancer();
    const config = await createConfig(balancer.id);
    const created = await createNode(balancer.id, config.id, node(1));
    const path = `/balancers/${balancer.id}/configs/${config.id}/nodes`;
    expect((await t.as('readOnly').get(path)).status).toBe(200);
    const refused = await t.as('readOnly').get(`${path}/${created.id}`);
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].reason).toMatch(/balancers:read_write/);
  });
});
