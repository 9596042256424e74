// A tiny authoritative name server for the import tests: on 127.0.0.1, a free port, TCP only. It
// answers an AXFR of a zone it serves with the zone's records between two SOAs, split over two
// messages as real servers do for big zones, and REFUSED for any other zone.
import net from 'node:net';
import dnsPacket from 'dns-packet';
import type { Answer, Packet } from 'dns-packet';

export interface NameServer {
  port: number;
  /** How many transfers were asked for. */
  transfers: number;
  /** Lets the process end while it still listens (a server that lives for the whole run). */
  unref(): void;
  close(): Promise<void>;
}

export function zoneRecords(zone: string): { soa: Answer; records: Answer[] } {
  const soa: Answer = {
    type: 'SOA', name: zone, ttl: 86400, class: 'IN',
    data: { mname: `ns1.${zone}`, rname: `host\\.master.${zone}`, serial: 2024010101, refresh: 14400, retry: 3600, expire: 604800, minimum: 300 },
  };
  const records: Answer[] = [
    { type: 'NS', name: zone, ttl: 86400, class: 'IN', data: `ns1.${zone}` },
    { type: 'A', name: `www.${zone}`, ttl: 300, class: 'IN', data: '192.0.2.10' },
    { type: 'AAAA', name: `www.${zone}`, ttl: 3600, class: 'IN', data: '2001:db8::10' },
    { type: 'CNAME', name: `blog.${zone}`, ttl: 3600, class: 'IN', data: `www.${zone}` },
    { type: 'MX', name: `mail.${zone}`, ttl: 3600, class: 'IN', data: { preference: 10, exchange: `mx1.${zone}` } },
    { type: 'TXT', name: `_dmarc.${zone}`, ttl: 3600, class: 'IN', data: ['v=DMARC1; p=reject'] },
    { type: 'SRV', name: `_sip._tcp.${zone}`, ttl: 3600, class: 'IN', data: { priority: 10, weight: 5, port: 5060, target: `sip.${zone}` } },
    { type: 'CAA', name: zone, ttl: 86400, class: 'IN', data: { flags: 0, tag: 'issue', value: 'ca.example' } },
    { type: 'NS', name: `sub.${zone}`, ttl: 86400, class: 'IN', data: `ns.other.example` },
    // Outside the zone: a transfer ignores it (RFC 5936 3.3). HINFO: a type the service does not host.
    { type: 'A', name: 'stray.other.example', ttl: 300, class: 'IN', data: '192.0.2.99' },
    { type: 'HINFO', name: `www.${zone}`, ttl: 300, class: 'IN', data: { cpu: 'x86', os: 'linux' } },
  ];
  return { soa, records };
}

export async function startNameServer(zones: string[]): Promise<NameServer> {
  const sockets = new Set<net.Socket>();
  const state = { transfers: 0 };
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let buffered = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      buffered = Buffer.concat([buffered, chunk]);
      if (buffered.length < 2 || buffered.length < 2 + buffered.readUInt16BE(0)) return;
      const query = dnsPacket.decode(buffered.subarray(2, 2 + buffered.readUInt16BE(0)));
      const question = query.questions?.[0];
      state.transfers++;
      const reply = (answers: Answer[], rcode = 0): Packet => ({ type: 'response', id: query.id, flags: dnsPacket.AUTHORITATIVE_ANSWER | rcode, questions: query.questions, answers });
      if (!question || question.type !== 'AXFR' || !zones.includes(question.name.toLowerCase())) {
        socket.end(dnsPacket.streamEncode(reply([], 5))); // REFUSED
        return;
      }
      const { soa, records } = zoneRecords(question.name.toLowerCase());
      const half = Math.ceil(records.length / 2);
      socket.write(dnsPacket.streamEncode(reply([soa, ...records.slice(0, half)])));
      socket.end(dnsPacket.streamEncode(reply([...records.slice(half), soa])));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    get transfers() { return state.transfers; },
    unref: () => { server.unref(); },
    close: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  };
}
