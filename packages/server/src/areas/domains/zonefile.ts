// A zone file in BIND's master file syntax (RFC 1035 section 5), rendered from a domain and its
// records: the SOA from the domain's settings (0 timings stand for their defaults), the service's
// name servers, then one line per record. Names the service holds without a trailing period are
// written fully qualified (with one) when they hold a dot, relative to the origin otherwise.
import type { DomainRow, RecordRow } from './store.js';
import { fromUtf8, utf8 } from '../../platform/bytes.js';

/** The service's name servers, served at the apex of every zone. */
export const NAME_SERVERS = ['ns1.cloud.example', 'ns2.cloud.example'];

/** What a timing of 0 stands for (requirements: Domain fields). */
const DEFAULTS = { ttl_sec: 86400, refresh_sec: 14400, retry_sec: 14400, expire_sec: 1209600 };

const timing = (domain: DomainRow, field: keyof typeof DEFAULTS) => domain[field] || DEFAULTS[field];

/** A name as the zone file writes it: `@` for the apex, absolute when fully qualified. */
function owner(name: string, origin: string): string {
  if (name === '' || name.toLowerCase() === origin) return '@';
  return name.toLowerCase().endsWith(`.${origin}`) ? `${name}.` : name;
}

const hostname = (value: string) => (value.includes('.') ? `${value}.` : value);

/** An email address as an SOA RNAME: the local part's periods escaped, `@` becoming a period. */
export function mailboxName(email: string, origin: string): string {
  const at = email.lastIndexOf('@');
  if (at < 0) return `hostmaster.${origin}.`;
  return `${email.slice(0, at).replace(/\./g, '\\.')}.${email.slice(at + 1)}.`;
}

/** A character string: quoted, `"` and `\` escaped, split in pieces of at most 255 bytes. */
export function quoted(text: string): string {
  const pieces: string[] = [];
  let rest = utf8(text);
  do {
    let size = Math.min(255, rest.length);
    while (size < rest.length && (rest[size]! & 0xc0) === 0x80) size--; // keep UTF-8 sequences whole
    pieces.push(fromUtf8(rest.subarray(0, size)));
    rest = rest.subarray(size);
  } while (rest.length);
  return pieces.map((p) => `"${p.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(' ');
}

function rdata(record: RecordRow): string {
  switch (record.type) {
    case 'A':
    case 'AAAA': return record.target;
    case 'MX': return record.target === '' ? '0 .' : `${record.priority} ${hostname(record.target)}`;
    case 'SRV': return `${record.priority} ${record.weight} ${record.port} ${hostname(record.target)}`;
    case 'TXT': return quoted(record.target);
    case 'CAA': return `0 ${record.tag} ${quoted(record.target)}`;
    default: return hostname(record.target); // NS, CNAME, PTR
  }
}

/** The serial of a new rendering: YYYYMMDDnn of today, and always above the last one. */
export function nextSerial(previous: number, now: number): number {
  const day = new Date(now).toISOString().slice(0, 10).replace(/-/g, '');
  return Math.max(previous + 1, Number(`${day}00`));
}

export function renderZone(domain: DomainRow, records: RecordRow[], serial: number): string[] {
  const origin = domain.domain;
  const ttl = timing(domain, 'ttl_sec');
  const lines = [
    `; ${origin} [${domain.id}]`,
    `$ORIGIN ${origin}.`,
    `$TTL ${ttl}`,
    `@ IN SOA ${NAME_SERVERS[0]}. ${mailboxName(domain.soa_email, origin)} ${serial} ${timing(domain, 'refresh_sec')} ${timing(domain, 'retry_sec')} ${timing(domain, 'expire_sec')} ${ttl}`,
    ...NAME_SERVERS.map((ns) => `@ IN NS ${ns}.`),
  ];
  for (const record of records) {
    const ttlColumn = record.ttl_sec ? ` ${record.ttl_sec}` : '';
    lines.push(`${owner(record.name, origin)}${ttlColumn} IN ${record.type} ${rdata(record)}`);
  }
  return lines;
}
