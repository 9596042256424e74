// Domains: one test per rule of the requirements (and of the spec's decisions) for domains and
// their records, the zone import by AXFR and the zone file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import zonefile from 'dns-zonefile';
import { startTestServer } from '../harness/harness.js';
import type { TestServer } from '../harness/harness.js';
import { startNameServer } from './nameserver.js';
import type { NameServer } from './nameserver.js';

let t: TestServer;
let ns: NameServer;
const previousAxfrPort = process.env.AXFR_PORT;

beforeAll(async () => {
  t = await startTestServer({ name: 'domains' });
  ns = await startNameServer(['remote.example', 'second.example', 'third.example']);
  // Transfers from name servers outside the sandbox world go to this port (read at each import).
  process.env.AXFR_PORT = String(ns.port);
});
afterAll(async () => {
  if (previousAxfrPort === undefined) delete process.env.AXFR_PORT;
  else process.env.AXFR_PORT = previousAxfrPort;
  await ns?.close();
  await t?.close();
});

const api = () => t.as('full');
const fieldsOf = (answer: { body: any }) => (answer.body?.errors ?? []).map((e: any) => e.field);

async function createDomain(domain: string, body: object = {}) {
  const answer = await api().post('/domains', { domain, type: 'master', soa_email: `admin@${domain}`, ...body });
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
}

async function createRecord(domainId: number, body: object) {
  const answer = await api().post(`/domains/${domainId}/records`, body);
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
}

const zoneOf = async (id: number): Promise<string[]> => {
  const answer = await api().get(`/domains/${id}/zone-file`);
  expect(answer.status, answer.text).toBe(200);
  return answer.body.zone_file;
};

describe('domains', () => {
  it('a master domain needs soa_email', async () => {
    const refused = await api().post('/domains', { domain: 'no-soa.example', type: 'master' });
    expect(refused.status).toBe(400);
    expect(fieldsOf(refused)).toContain('soa_email');
    const domain = await createDomain('with-soa.example');
    expect(domain).toMatchObject({ type: 'master', soa_email: 'admin@with-soa.example', master_ips: [] });
  });

  it('a slave domain needs at least one address in master_ips', async () => {
    for (const body of [{}, { master_ips: [] }]) {
      const refused = await api().post('/domains', { domain: 'slave.example', type: 'slave', ...body });
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(fieldsOf(refused)).toContain('master_ips');
    }
    const slave = await api().post('/domains', { domain: 'slave.example', type: 'slave', master_ips: ['192.0.2.53', '2001:db8::53'] });
    expect(slave.status, slave.text).toBe(200);
    expect(slave.body).toMatchObject({ type: 'slave', soa_email: '', master_ips: ['192.0.2.53', '2001:db8::53'] });
  });

  it('an update must leave the domain with what its type requires', async () => {
    const master = await createDomain('turns-slave.example');
    const toSlave = await api().put(`/domains/${master.id}`, { type: 'slave' });
    expect(toSlave.status).toBe(400);
    expect(fieldsOf(toSlave)).toEqual(['master_ips']);
    const slave = await api().put(`/domains/${master.id}`, { type: 'slave', master_ips: ['192.0.2.1'] });
    expect(slave.status, slave.text).toBe(200);
    expect(slave.body.type).toBe('slave');

    const other = (await api().post('/domains', { domain: 'turns-master.example', type: 'slave', master_ips: ['192.0.2.2'] })).body;
    const toMaster = await api().put(`/domains/${other.id}`, { type: 'master' });
    expect(toMaster.status).toBe(400);
    expect(fieldsOf(toMaster)).toEqual(['soa_email']);
    expect((await api().get(`/domains/${other.id}`)).body.type).toBe('slave');
  });

  it('a domain is unique across the whole platform (create, update, clone)', async () => {
    const first = await createDomain('unique.example');
    for (const [who, domain] of [['full', 'unique.example'], ['noGrants', 'UNIQUE.example']] as const) {
      const again = await t.as(who).post('/domains', { domain, type: 'master', soa_email: 'a@b.example' });
      expect(again.status, `${who} ${domain}`).toBe(400);
      expect(fieldsOf(again)).toEqual(['domain']);
    }
    const second = await createDomain('unique-two.example');
    const rename = await api().put(`/domains/${second.id}`, { domain: 'unique.example' });
    expect(rename.status).toBe(400);
    expect(fieldsOf(rename)).toEqual(['domain']);
    const clone = await api().post(`/domains/${first.id}/clone`, { domain: 'unique-two.example' });
    expect(clone.status).toBe(400);
    expect(fieldsOf(clone)).toEqual(['domain']);
    expect((await api().get('/domains', { query: { page_size: 100 } })).body.data.filter((d: any) => d.domain.startsWith('unique')).length).toBe(2);
  });

  it('status defaults to active; an update moves it to disabled and back to active', async () => {
    const domain = await createDomain('status.example');
    expect(domain.status).toBe('active');
    const disabled = await api().put(`/domains/${domain.id}`, { status: 'disabled' });
    expect(disabled.body.status).toBe('disabled');
    const active = await api().put(`/domains/${domain.id}`, { status: 'active' });
    expect(active.body.status).toBe('active');
    const bogus = await api().put(`/domains/${domain.id}`, { status: 'deleted' });
    expect(bogus.status).toBe(400);
    expect(new Set(fieldsOf(bogus))).toEqual(new Set(['status']));
  });

  it('a disabled domain is not rendered: its zone file stays as last rendered until it is active again', async () => {
    const neverRendered = await createDomain('born-disabled.example', { status: 'disabled' });
    expect(await zoneOf(neverRendered.id)).toEqual([]);

    const domain = await createDomain('render.example');
    await createRecord(domain.id, { type: 'A', name: 'www', target: '192.0.2.10' });
    const before = await zoneOf(domain.id);
    expect(before.some((l) => /^www IN A 192\.0\.2\.10$/.test(l))).toBe(true);
    await api().put(`/domains/${domain.id}`, { status: 'disabled' });
    await createRecord(domain.id, { type: 'A', name: 'shop', target: '192.0.2.11' });
    expect(await zoneOf(domain.id)).toEqual(before);
    await api().put(`/domains/${domain.id}`, { status: 'active' });
    const after = await zoneOf(domain.id);
    expect(after.some((l) => /^shop IN A 192\.0\.2\.11$/.test(l))).toBe(true);
    const serial = (lines: string[]) => Number(lines.find((l) => l.includes(' SOA '))!.split(/\s+/)[5]);
    expect(serial(after)).toBeGreaterThan(serial(before));
  });

  it('the four timings are rounded up to the nearest valid value; 0 means the default', async () => {
    const domain = await createDomain('timings.example', { ttl_sec: 3000, refresh_sec: 1, retry_sec: 0, expire_sec: 9_999_999 });
    expect(domain).toMatchObject({ ttl_sec: 3600, refresh_sec: 300, retry_sec: 0, expire_sec: 2419200 });
    const updated = await api().put(`/domains/${domain.id}`, { ttl_sec: 3601 });
    expect(updated.body.ttl_sec).toBe(7200);
    const soa = (await zoneOf(domain.id)).find((l) => l.includes(' SOA '))!.split(/\s+/);
    expect(soa.slice(6)).toEqual(['300', '14400', '2419200', '7200']); // refresh, retry (default), expire, minimum
  });

  it('deleting a domain deletes all of its records', async () => {
    const domain = await createDomain('deleted.example');
    await createRecord(domain.id, { type: 'A', name: 'www', target: '192.0.2.10' });
    await createRecord(domain.id, { type: 'TXT', name: 'note', target: 'hello' });
    const stored = () => t.server.store.db.selectFrom('domain_records').select('id').where('domain_id', '=', domain.id).execute();
    expect((await stored()).length).toBe(2);
    expect((await api().delete(`/domains/${domain.id}`)).status).toBe(200);
    expect((await api().get(`/domains/${domain.id}`)).status).toBe(404);
    expect((await api().get(`/domains/${domain.id}/records`)).status).toBe(404);
    expect(await stored()).toEqual([]);
    // The name is free again.
    await createDomain('deleted.example');
  });

  it('clone copies every record into a new domain with the source settings; the source is unchanged', async () => {
    const source = await createDomain('source.example', { description: 'site', group: 'web', tags: ['cloned-tag'], ttl_sec: 300 });
    const bodies = [
      { type: 'A', name: 'www', target: '192.0.2.10', ttl_sec: 300 },
      { type: 'MX', name: 'mail', target: 'mx1.source.example', priority: 10 },
      { type: 'SRV', service: 'sip', protocol: 'tcp', target: 'sip', priority: 10, weight: 5, port: 5060 },
      { type: 'CAA', tag: 'issue', target: 'ca.example' },
    ];
    for (const body of bodies) await createRecord(source.id, body);
    const clone = await api().post(`/domains/${source.id}/clone`, { domain: 'copy.example' });
    expect(clone.status, clone.text).toBe(200);
    expect(clone.body).toMatchObject({ domain: 'copy.example', type: 'master', description: 'site', group: 'web', tags: ['cloned-tag'], ttl_sec: 300, soa_email: 'admin@source.example' });
    expect(clone.body.id).not.toBe(source.id);
    const strip = (records: any[]) => records.map(({ id: _i, created: _c, updated: _u, ...rest }) => rest);
    const sourceRecords = (await api().get(`/domains/${source.id}/records`)).body.data;
    const cloneRecords = (await api().get(`/domains/${clone.body.id}/records`)).body.data;
    expect(cloneRecords.length).toBe(4);
    expect(strip(cloneRecords)).toEqual(strip(sourceRecords));
    expect((await zoneOf(clone.body.id)).some((l) => l.startsWith('www 300 IN A 192.0.2.10'))).toBe(true);
    expect((await api().get(`/domains/${source.id}`)).body.domain).toBe('source.example');
    expect((await api().post('/domains/999999/clone', { domain: 'nothing.example' })).status).toBe(404);
  });

  it('import creates the domain from a real AXFR zone transfer over TCP from remote_nameserver', async () => {
    const before = ns.transfers;
    const imported = await api().post('/domains/import', { domain: 'remote.example', remote_nameserver: '127.0.0.1' });
    expect(imported.status, imported.text).toBe(200);
    expect(ns.transfers).toBe(before + 1);
    expect(imported.body).toMatchObject({
      domain: 'remote.example', type: 'master', status: 'active', soa_email: 'host.master@remote.example',
      ttl_sec: 86400, refresh_sec: 14400, retry_sec: 3600, expire_sec: 604800,
    });
    const records = (await api().get(`/domains/${imported.body.id}/records`)).body.data;
    const brief = records.map((r: any) => [r.type, r.name, r.target]);
    expect(brief).toEqual([
      ['A', 'www', '192.0.2.10'],
      ['AAAA', 'www', '2001:db8::10'],
      ['CNAME', 'blog', 'www.remote.example'],
      ['MX', 'mail', 'mx1.remote.example'],
      ['TXT', '_dmarc', 'v=DMARC1; p=reject'],
      ['SRV', '_sip._tcp', 'sip.remote.example'],
      ['CAA', '', 'ca.example'],
      ['NS', 'sub', 'ns.other.example'],
    ]);
    expect(records.find((r: any) => r.type === 'SRV')).toMatchObject({ service: '_sip', protocol: '_tcp', priority: 10, weight: 5, port: 5060 });
    expect(records.find((r: any) => r.type === 'MX').priority).toBe(10);
    // Importing it again: the name is hosted already (and no transfer is made for it).
    const again = await api().post('/domains/import', { domain: 'remote.example', remote_nameserver: '127.0.0.1' });
    expect(again.status).toBe(400);
    expect(fieldsOf(again)).toEqual(['domain']);
    expect(ns.transfers).toBe(before + 1);
    // A host name is resolved (here by the system's resolver).
    const byName = await api().post('/domains/import', { domain: 'second.example', remote_nameserver: 'localhost' });
    expect(byName.status, byName.text).toBe(200);
    expect(byName.body.soa_email).toBe('host.master@second.example');
  });

  it('import from a name server of the sandbox world (the spec\'s example) is a real AXFR from the server\'s own name server', async () => {
    const before = ns.transfers;
    const imported = await api().post('/domains/import', { domain: 'legacy.example', remote_nameserver: 'ns1.legacy.example' });
    expect(imported.status, imported.text).toBe(200);
    // AXFR_PORT (the test's name server) is not asked: the zone comes from data/sandbox.json.
    expect(ns.transfers).toBe(before);
    expect(imported.body).toMatchObject({ domain: 'legacy.example', soa_email: 'hostmaster@legacy.example', ttl_sec: 86400, refresh_sec: 14400, retry_sec: 3600, expire_sec: 604800 });
    const records = (await api().get(`/domains/${imported.body.id}/records`)).body.data;
    expect(records.map((r: any) => `${r.type} ${r.name} ${r.target}`)).toEqual([
      'A ns1 192.0.2.53', 'A ns2 198.51.100.53', 'A www 192.0.2.80', 'AAAA www 2001:db8::80', 'CNAME ftp www.legacy.example',
      'TXT _dmarc v=DMARC1; p=none', 'SRV _xmpp-client._tcp xmpp.legacy.example', 'A xmpp 192.0.2.81', 'CAA  ca.example',
    ]);
    // The world's name servers serve each of its zones; names are matched without case or the root's period.
    const archive = await api().post('/domains/import', { domain: 'archive.example', remote_nameserver: 'NS2.Legacy.Example.' });
    expect(archive.status, archive.text).toBe(200);
    expect(archive.body.soa_email).toBe('dns@archive.example');
    const refused = await api().post('/domains/import', { domain: 'unknown.example', remote_nameserver: 'ns1.legacy.example' });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([{ field: 'remote_nameserver', reason: expect.stringMatching(/ns1\.legacy\.example refused the zone transfer of unknown\.example \(REFUSED\)/) }]);
    expect(ns.transfers).toBe(before);
  });

  it('import fails with 400 naming remote_nameserver when the transfer is refused or impossible, and writes nothing', async () => {
    const refused = await api().post('/domains/import', { domain: 'not-served.example', remote_nameserver: '127.0.0.1' });
    expect(refused.status).toBe(400);
    expect(fieldsOf(refused)).toEqual(['remote_nameserver']);
    expect(refused.body.errors[0].reason).toMatch(/REFUSED/);
    const unknownHost = await api().post('/domains/import', { domain: 'third.example', remote_nameserver: 'no-such-host.invalid' });
    expect(unknownHost.status).toBe(400);
    expect(fieldsOf(unknownHost)).toEqual(['remote_nameserver']);
    const all = (await api().get('/domains')).body.data.map((d: any) => d.domain);
    expect(all).not.toContain('not-served.example');
    expect(all).not.toContain('third.example');
  });

  it('tags on domains: a domain is a taggable object (POST /tags with domains, GET /tags/{label})', async () => {
    const domain = await createDomain('tagged.example', { tags: ['dns-a'] });
    expect(domain.tags).toEqual(['dns-a']);
    const tag = await api().post('/tags', { label: 'dns-b', domains: [domain.id] });
    expect(tag.status, tag.text).toBe(200);
    const objects = await api().get('/tags/dns-b');
    expect(objects.status, objects.text).toBe(200);
    expect(objects.body.data).toEqual([{ type: 'domain', data: expect.objectContaining({ id: domain.id, domain: 'tagged.example', tags: ['dns-a', 'dns-b'] }) }]);
    const missing = await api().post('/tags', { label: 'dns-c', domains: [999999] });
    expect(missing.status).toBe(400);
    expect(fieldsOf(missing)).toEqual(['domains.0']);
    const replaced = await api().put(`/domains/${domain.id}`, { tags: ['dns-c'] });
    expect(replaced.body.tags).toEqual(['dns-c']);
  });
});

describe('domain records', () => {
  let domain: any;
  beforeAll(async () => {
    domain = await createDomain('records.example');
  });
  const post = (body: object) => api().post(`/domains/${domain.id}/records`, body);

  it('each record type takes only its own fields (priority MX and SRV, weight/port/service/protocol SRV, tag CAA)', async () => {
    for (const [body, field] of [
      [{ type: 'A', name: 'x', target: '192.0.2.1', priority: 1 }, 'priority'],
      [{ type: 'MX', name: 'x', target: 'mx.example.org', weight: 1 }, 'weight'],
      [{ type: 'TXT', name: 'x', target: 'hi', service: 'sip' }, 'service'],
      [{ type: 'CNAME', name: 'x', target: 'a.example.org', tag: 'issue' }, 'tag'],
    ] as const) {
      const refused = await post(body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(fieldsOf(refused), JSON.stringify(body)).toContain(field);
    }
    // Without `type` in an update, the record's own type decides.
    const a = await createRecord(domain.id, { type: 'A', name: 'fields', target: '192.0.2.1' });
    const update = await api().put(`/domains/${domain.id}/records/${a.id}`, { weight: 5 });
    expect(update.status).toBe(400);
    expect(fieldsOf(update)).toContain('weight');
    expect(a).toMatchObject({ priority: 0, weight: 0, port: 0, service: null, protocol: null, tag: null });
  });

  it('the target has the form its type requires (A IPv4, AAAA IPv6, names for NS, MX, CNAME, SRV)', async () => {
    for (const body of [
      { type: 'A', name: 'x', target: '2001:db8::1' },
      { type: 'AAAA', name: 'x', target: '192.0.2.1' },
      { type: 'CNAME', name: 'x', target: 'not a name!' },
      { type: 'NS', name: 'x', target: '' },
    ]) {
      const refused = await post(body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(fieldsOf(refused), JSON.stringify(body)).toContain('target');
    }
    const aaaa = await createRecord(domain.id, { type: 'AAAA', name: 'v6', target: '2001:db8::1' });
    const update = await api().put(`/domains/${domain.id}/records/${aaaa.id}`, { target: '192.0.2.1' });
    expect(update.status).toBe(400);
    expect(fieldsOf(update)).toContain('target');
  });

  it('SRV: service and protocol get an underscore, a bare target is completed with the domain, a FQDN is used as given', async () => {
    const srv = await createRecord(domain.id, { type: 'SRV', service: 'sip', protocol: 'tcp', target: 'sip', priority: 10, weight: 5, port: 5060 });
    expect(srv).toMatchObject({ service: '_sip', protocol: '_tcp', name: '_sip._tcp', target: 'sip.records.example', priority: 10, weight: 5, port: 5060 });
    const fqdn = await createRecord(domain.id, { type: 'SRV', service: 'xmpp', protocol: 'udp', target: 'chat.other.example.', priority: 0, weight: 0, port: 5222 });
    expect(fqdn).toMatchObject({ name: '_xmpp._udp', target: 'chat.other.example' });
    const updated = await api().put(`/domains/${domain.id}/records/${srv.id}`, { service: 'sips', target: 'edge' });
    expect(updated.body).toMatchObject({ service: '_sips', protocol: '_tcp', name: '_sips._tcp', target: 'edge.records.example' });
  });

  it('SRV needs service, priority, weight, port and target', async () => {
    const refused = await post({ type: 'SRV', protocol: 'tcp' });
    expect(refused.status).toBe(400);
    expect(fieldsOf(refused).sort()).toEqual(expect.arrayContaining(['port', 'priority', 'service', 'target', 'weight']));
  });

  it('CAA needs a tag; issue and issuewild take the issuer domain, iodef an http or mailto URL; an empty name is the whole domain', async () => {
    const noTag = await post({ type: 'CAA', target: 'ca.example' });
    expect(noTag.status).toBe(400);
    expect(fieldsOf(noTag)).toContain('tag');
    const badIodef = await post({ type: 'CAA', tag: 'iodef', target: 'ca.example' });
    expect(badIodef.status).toBe(400);
    expect(fieldsOf(badIodef)).toContain('target');
    const badIssue = await post({ type: 'CAA', tag: 'issue', target: 'mailto:x@ca.example' });
    expect(badIssue.status).toBe(400);
    const issue = await createRecord(domain.id, { type: 'CAA', tag: 'issue', target: 'ca.example' });
    expect(issue).toMatchObject({ name: '', tag: 'issue', target: 'ca.example', priority: 0 });
    const iodef = await createRecord(domain.id, { type: 'CAA', name: '', tag: 'iodef', target: 'mailto:security@records.example' });
    expect(iodef.tag).toBe('iodef');
    // A CAA record changed without `type`: the iodef form still applies.
    const update = await api().put(`/domains/${domain.id}/records/${iodef.id}`, { target: 'ca.example' });
    expect(update.status).toBe(400);
  });

  it('target accepts a trailing period for every type except A, AAAA and CAA', async () => {
    const mx = await createRecord(domain.id, { type: 'MX', name: 'shop', target: 'mx1.records.example.', priority: 10 });
    expect(mx.target).toBe('mx1.records.example');
    const cname = await createRecord(domain.id, { type: 'CNAME', name: 'blog', target: 'www.records.example.' });
    expect(cname.target).toBe('www.records.example');
    for (const body of [{ type: 'A', name: 'p', target: '192.0.2.1.' }, { type: 'AAAA', name: 'p', target: '2001:db8::1.' }, { type: 'CAA', tag: 'issue', target: 'ca.example.' }]) {
      const refused = await post(body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(fieldsOf(refused)).toContain('target');
    }
  });

  it('the A target [remote_addr] submits the IPv4 address of the request', async () => {
    const record = await createRecord(domain.id, { type: 'A', name: 'home', target: '[remote_addr]' });
    expect(record.target).toBe('127.0.0.1');
  });

  it('a null MX can be created only when the domain has no other MX, and while it exists no other MX can be created', async () => {
    const mail = await createDomain('nullmx.example');
    const mx = await createRecord(mail.id, { type: 'MX', name: 'mail', target: 'mx1.nullmx.example', priority: 10 });
    const blocked = await api().post(`/domains/${mail.id}/records`, { type: 'MX', name: '', target: '', priority: 0 });
    expect(blocked.status).toBe(400);
    expect(fieldsOf(blocked)).toEqual(['target']);
    await api().delete(`/domains/${mail.id}/records/${mx.id}`);
    const nullMx = await createRecord(mail.id, { type: 'MX', name: '', target: '' });
    expect(nullMx).toMatchObject({ name: '', target: '', priority: 0 });
    const second = await api().post(`/domains/${mail.id}/records`, { type: 'MX', name: 'mail', target: 'mx2.nullmx.example', priority: 5 });
    expect(second.status).toBe(400);
    expect(second.body.errors[0].reason).toMatch(/null MX/);
    const nonZero = await api().post(`/domains/${mail.id}/records`, { type: 'MX', name: '', target: '', priority: 3 });
    expect(nonZero.status).toBe(400);
    // An A record changed into a second MX is refused too.
    const a = await createRecord(mail.id, { type: 'A', name: 'x', target: '192.0.2.3' });
    const changed = await api().put(`/domains/${mail.id}/records/${a.id}`, { type: 'MX', name: 'x', target: 'mx3.nullmx.example' });
    expect(changed.status).toBe(400);
    expect((await zoneOf(mail.id)).filter((l) => / MX /.test(l))).toEqual(['@ IN MX 0 .']);
  });

  it('a CNAME name must be unique', async () => {
    await createRecord(domain.id, { type: 'A', name: 'taken', target: '192.0.2.5' });
    const clash = await post({ type: 'CNAME', name: 'taken', target: 'www.records.example' });
    expect(clash.status).toBe(400);
    expect(fieldsOf(clash)).toEqual(['name']);
    await createRecord(domain.id, { type: 'CNAME', name: 'alias', target: 'www.records.example' });
    for (const body of [{ type: 'CNAME', name: 'alias', target: 'other.records.example' }, { type: 'TXT', name: 'alias', target: 'x' }]) {
      const again = await post(body);
      expect(again.status, JSON.stringify(body)).toBe(400);
      expect(fieldsOf(again)).toEqual(['name']);
    }
    const noName = await post({ type: 'CNAME', target: 'www.records.example' });
    expect(noName.status).toBe(400);
    expect(fieldsOf(noName)).toContain('name');
  });

  it('ttl_sec is rounded to the nearest valid value; without it the record uses the zone default (0)', async () => {
    const cases: [number, number][] = [[3000, 3600], [301, 300], [5000, 3600], [5500, 7200], [9_999_999, 2419200]];
    for (const [sent, held] of cases) {
      const record = await createRecord(domain.id, { type: 'TXT', name: `ttl${sent}`, target: 'x', ttl_sec: sent });
      expect(record.ttl_sec, String(sent)).toBe(held);
    }
    expect((await createRecord(domain.id, { type: 'TXT', name: 'ttl-default', target: 'x' })).ttl_sec).toBe(0);
  });

  it('an update that leaves the record without what its type requires is a 400, and changes nothing', async () => {
    const a = await createRecord(domain.id, { type: 'A', name: 'incomplete', target: '192.0.2.9' });
    const toSrv = await api().put(`/domains/${domain.id}/records/${a.id}`, { type: 'SRV', service: 'sip' });
    expect(toSrv.status).toBe(400);
    expect(fieldsOf(toSrv)).toEqual(expect.arrayContaining(['weight', 'port', 'target']));
    const same = await api().get(`/domains/${domain.id}/records/${a.id}`);
    expect(same.body).toEqual(a);
    const ok = await api().put(`/domains/${domain.id}/records/${a.id}`, { target: '192.0.2.20', ttl_sec: 3000 });
    expect(ok.body).toMatchObject({ type: 'A', name: 'incomplete', target: '192.0.2.20', ttl_sec: 3600 });
  });

  it('the zone file is rendered from the records as BIND syntax that a zone file parser reads back', async () => {
    const zone = await createDomain('bind.example', { ttl_sec: 300, soa_email: 'dns.admin@bind.example' });
    const longText = 'k='.padEnd(300, 'x');
    const bodies = [
      { type: 'A', name: 'www', target: '192.0.2.10' },
      { type: 'AAAA', name: 'www', target: '2001:db8::10', ttl_sec: 3600 },
      { type: 'NS', name: 'sub', target: 'ns.other.example' },
      { type: 'MX', name: 'shop', target: 'mx1.bind.example.', priority: 10 },
      { type: 'CNAME', name: 'blog', target: 'www.bind.example' },
      { type: 'TXT', name: '_dmarc', target: 'v=DMARC1; p=reject "quoted"' },
      { type: 'SRV', service: 'sip', protocol: 'tcp', target: 'sip', priority: 10, weight: 5, port: 5060 },
      { type: 'CAA', tag: 'issue', target: 'ca.example' },
      { type: 'PTR', name: '10', target: 'www.bind.example' },
      { type: 'TXT', name: 'long', target: longText },
    ];
    for (const body of bodies) await createRecord(zone.id, body);
    const lines = await zoneOf(zone.id);
    const parsed = zonefile.parse(lines.join('\n') + '\n') as any;
    expect(parsed.$origin).toBe('bind.example.');
    expect(Number(parsed.$ttl)).toBe(300);
    expect(parsed.soa).toMatchObject({ name: '@', mname: 'ns1.cloud.example.', rname: 'dns\\.admin.bind.example.', refresh: 14400, retry: 14400, expire: 1209600, minimum: 300 });
    expect(parsed.ns.map((r: any) => [r.name, r.host])).toEqual([['@', 'ns1.cloud.example.'], ['@', 'ns2.cloud.example.'], ['sub', 'ns.other.example.']]);
    expect(parsed.a).toEqual([{ name: 'www', ip: '192.0.2.10' }]);
    expect(parsed.aaaa).toEqual([{ name: 'www', ttl: 3600, ip: '2001:db8::10' }]);
    expect(parsed.mx).toEqual([{ name: 'shop', preference: 10, host: 'mx1.bind.example.' }]);
    expect(parsed.cname).toEqual([{ name: 'blog', alias: 'www.bind.example.' }]);
    // A text longer than 255 bytes is written as several strings of at most 255.
    expect(parsed.txt.map((r: any) => [r.name, r.txt])).toEqual([['_dmarc', '"v=DMARC1; p=reject \\"quoted\\""'], ['long', `"${longText.slice(0, 255)}" "${longText.slice(255)}"`]]);
    expect(parsed.srv).toEqual([{ name: '_sip._tcp', priority: 10, weight: 5, port: 5060, target: 'sip.bind.example.' }]);
    expect(parsed.caa).toEqual([{ name: '@', flags: 0, tag: 'issue', value: '"ca.example"' }]);
    expect(parsed.ptr).toEqual([{ name: '10', fullname: '10.bind.example.', host: 'www.bind.example.' }]);
  });
});
