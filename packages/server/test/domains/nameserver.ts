// A name server outside the sandbox world, for the import tests: the server's own zone server
// (src/sandbox/nameserver.ts) on 127.0.0.1 and a free port, serving test zones that hold every
// hosted record type, a record outside the zone and one of a type the service does not host, in
// messages small enough that each transfer takes several (as real servers split big zones).
import type { Answer } from 'dns-packet';
import { startZoneServer } from '../../src/sandbox/nameserver.js';
import type { ZoneServer } from '../../src/sandbox/nameserver.js';

export type NameServer = ZoneServer;

/** The zone's records, its SOA first. */
export function zoneRecords(zone: string): Answer[] {
  return [
    {
      type: 'SOA', name: zone, ttl: 86400, class: 'IN',
      data: { mname: `ns1.${zone}`, rname: `host\\.master.${zone}`, serial: 2024010101, refresh: 14400, retry: 3600, expire: 604800, minimum: 300 },
    },
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
}

export function startNameServer(zones: string[]): Promise<NameServer> {
  return startZoneServer(new Map(zones.map((zone) => [zone, zoneRecords(zone)])), { messageBytes: 256 });
}
