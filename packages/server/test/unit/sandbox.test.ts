// The sandbox world (data/sandbox.json) against the spec's examples, as test/unit/catalogue.test.ts
// checks the catalogue: the import example's zone is served and imports as the response example
// says, every zone can be imported, and no bucket label an example uses belongs to another
// account. Then the sandbox's name server on the wire: transfers, refusals, bad input, close.
import net from 'node:net';
import dnsPacket from 'dns-packet';
import type { DecodedPacket, Packet } from 'dns-packet';
import { describe, expect, it } from 'vitest';
import { importedZone } from '../../src/areas/domains/import.js';
import { BUCKET_LABEL } from '../../src/areas/object-storage/store.js';
import { loadCatalogue } from '../../src/core/catalogue.js';
import { loadBundle } from '@cloudapi/spec/bundle';
import { describeBundle } from '../../src/core/spec.js';
import { startZoneServer } from '../../src/sandbox/nameserver.js';
import { hostKey, loadSandboxWorld } from '../../src/sandbox/world.js';
import { examples, objectsIn } from '../harness/examples.js';
import { startTestServer } from '../harness/harness.js';

const world = loadSandboxWorld();
const document = loadBundle();
const importDomain = describeBundle(document).byId.get('importDomain')!;

describe('sandbox world (data/sandbox.json)', () => {
  it('the spec\'s importDomain examples name a zone and a name server of the sandbox world, and the import answers the response example', () => {
    const all = [...examples(document)].filter((e) => e.operationId === 'importDomain');
    const requests = all.filter((e) => e.kind === 'request').map((e) => e.value as { domain: string; remote_nameserver: string });
    const answers = all.filter((e) => e.kind === 'response' && (e.value as { id?: unknown }).id !== undefined).map((e) => e.value as Record<string, unknown>);
    expect(requests.length).toBeGreaterThan(0);
    for (const { domain, remote_nameserver: nameserver } of requests) {
      expect(world.nameServers.has(hostKey(nameserver)), `${nameserver} is not a name server of data/sandbox.json`).toBe(true);
      const records = world.zones.get(hostKey(domain));
      expect(records, `zone ${domain} is not in data/sandbox.json`).toBeDefined();
      const zone = importedZone([...records!], hostKey(domain), nameserver, importDomain);
      for (const answer of answers.filter((a) => a.domain === domain)) {
        const { soa_email, ttl_sec, refresh_sec, retry_sec, expire_sec } = answer;
        expect({ soa_email, ttl_sec, refresh_sec, retry_sec, expire_sec }).toEqual({ soa_email: zone.soa_email, ttl_sec: zone.ttl_sec, refresh_sec: zone.refresh_sec, retry_sec: zone.retry_sec, expire_sec: zone.expire_sec });
      }
    }
    expect(answers.length).toBeGreaterThan(0);
  });

  it('every zone starts with its SOA, names its name servers at its apex, holds only its own names, and can be imported', () => {
    expect(world.zones.size).toBeGreaterThan(0);
    for (const [zone, records] of world.zones) {
      expect(records[0], zone).toMatchObject({ type: 'SOA', name: zone });
      expect(records.filter((r) => r.type === 'NS' && r.name === zone).length, `${zone}: apex NS records`).toBeGreaterThan(0);
      for (const record of records) {
        expect(record.name === zone || record.name.endsWith(`.${zone}`), `${zone}: ${record.name}`).toBe(true);
        expect(() => dnsPacket.encode({ type: 'response', answers: [record] }), `${zone}: ${record.type} ${record.name}`).not.toThrow();
      }
      expect(importedZone([...records], zone, 'ns', importDomain).records.length, zone).toBeGreaterThan(0);
    }
  });

  it('bucket labels of other accounts are valid labels in clusters of the catalogue, and no example uses one', () => {
    const catalogue = loadCatalogue();
    expect(world.otherAccountsBuckets.size).toBeGreaterThan(0);
    for (const key of world.otherAccountsBuckets) {
      const [cluster, label] = key.split('/') as [string, string];
      expect(catalogue.cluster(cluster), key).toBeDefined();
      expect(label, key).toMatch(BUCKET_LABEL);
    }
    const held = new Set([...world.otherAccountsBuckets].map((key) => key.split('/')[1]));
    let checked = 0;
    for (const { where, value } of examples(document)) {
      for (const object of objectsIn(value)) {
        const named = [object.cluster !== undefined ? object.label : undefined, object.bucket_name, object.bucket].filter((v) => typeof v === 'string');
        for (const label of named) {
          expect(held.has(label as string), `${where}: bucket ${label} belongs to another account in data/sandbox.json`).toBe(false);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(5);
  });
});

/** A decoded message with its response code (dns-packet decodes it; its types leave it out). */
type Message = DecodedPacket & { rcode?: string };

/** Sends `query` over TCP; resolves with every message the server sent before closing. */
function ask(port: number, query: Packet | Buffer): Promise<Message[]> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    let data = Buffer.alloc(0);
    socket.on('connect', () => socket.write(Buffer.isBuffer(query) ? query : dnsPacket.streamEncode(query)));
    socket.on('data', (chunk) => { data = Buffer.concat([data, chunk]); });
    socket.on('error', reject);
    socket.on('close', () => {
      const messages: Message[] = [];
      for (let at = 0; at + 2 <= data.length; at += 2 + data.readUInt16BE(at)) messages.push(dnsPacket.decode(data.subarray(at + 2, at + 2 + data.readUInt16BE(at))));
      resolve(messages);
    });
  });
}

/** The error code of a connection to `port`, or undefined when it connects. */
const connectError = (port: number) => new Promise<string | undefined>((resolve) => {
  const socket = net.connect({ host: '127.0.0.1', port });
  socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code));
  socket.on('connect', () => { socket.destroy(); resolve(undefined); });
});

const axfr = (zone: string, id = 4242): Packet => ({ type: 'query', id, flags: 0, questions: [{ type: 'AXFR', name: zone, class: 'IN' }] });

describe('sandbox name server', () => {
  it('transfers a zone between two copies of its SOA, in several messages when it is larger than one', async () => {
    const server = await startZoneServer(world.zones, { messageBytes: 256 });
    try {
      const messages = await ask(server.port, axfr('legacy.example'));
      expect(messages.length).toBeGreaterThan(1);
      for (const message of messages) expect(message).toMatchObject({ id: 4242, type: 'response', rcode: 'NOERROR', flag_aa: true });
      const records = world.zones.get('legacy.example')!;
      expect(messages.flatMap((m) => m.answers ?? []).map((a) => `${a.type} ${a.name}`)).toEqual([...records, records[0]!].map((r) => `${r.type} ${r.name}`));
      expect(server.transfers).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('refuses a zone it does not serve, answers NOTIMP to any other query, and closes on bytes that are no DNS message', async () => {
    const server = await startZoneServer(world.zones);
    try {
      expect((await ask(server.port, axfr('elsewhere.example'))).map((m) => [m.rcode, m.answers?.length])).toEqual([['REFUSED', 0]]);
      const soa: Packet = { type: 'query', id: 7, flags: 0, questions: [{ type: 'SOA', name: 'legacy.example', class: 'IN' }] };
      expect((await ask(server.port, soa)).map((m) => m.rcode)).toEqual(['NOTIMP']);
      expect(await ask(server.port, Buffer.from([0, 3, 1, 2, 3]))).toEqual([]);
      expect(server.transfers).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('close() cuts the connections still open and stops listening', async () => {
    const server = await startZoneServer(world.zones);
    const idle = net.connect({ host: '127.0.0.1', port: server.port });
    await new Promise((resolve) => idle.on('connect', resolve));
    const cut = new Promise((resolve) => idle.on('close', resolve));
    await server.close();
    await cut;
    expect(await connectError(server.port)).toBe('ECONNREFUSED');
  });

  it('runs with every server (a free port by default) and closes with it', async () => {
    const t = await startTestServer({ name: 'sandbox' });
    const { dnsPort } = t.server.sandbox;
    expect(t.server.sandbox.nameServerAddress('ns1.legacy.example')).toEqual({ host: '127.0.0.1', port: dnsPort });
    expect(t.server.sandbox.nameServerAddress('ns1.elsewhere.example')).toBeUndefined();
    expect((await ask(dnsPort, axfr('legacy.example'))).at(-1)?.answers?.at(-1)).toMatchObject({ type: 'SOA', name: 'legacy.example' });
    await t.close();
    expect(await connectError(dnsPort)).toBe('ECONNREFUSED');
  });
});
