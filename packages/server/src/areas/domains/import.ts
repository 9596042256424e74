// A transferred zone as the service holds it: the domain's settings from the SOA, and one record
// per resource record of a type the service hosts. The zone's SOA and its apex NS records describe
// the old hosting and are replaced by the service's own; types the service does not host (DNSSEC
// signatures and keys, HINFO, ...) are not kept.
import type { Answer } from 'dns-packet';
import { ApiError } from '../../core/errors.js';
import type { OperationSpec } from '../../core/spec.js';
import { checkComplete, roundDomainTiming, roundRecordTtl } from './records.js';
import type { RecordInput } from './records.js';

export interface ImportedZone {
  soa_email: string;
  ttl_sec: number;
  refresh_sec: number;
  retry_sec: number;
  expire_sec: number;
  records: RecordInput[];
}

/** An SOA RNAME as an email address: the first unescaped period is the `@`. */
export function mailboxEmail(rname: string): string {
  const match = /^((?:[^.\\]|\\.)*)\.(.+)$/.exec(rname);
  return match ? `${match[1]!.replace(/\\(.)/g, '$1')}@${match[2]}` : rname;
}

const CAA_TAGS = new Set(['issue', 'issuewild', 'iodef']);

/** The owner name relative to the zone; undefined for a name outside it (ignored, RFC 5936 3.3). */
function relativeName(name: string, zone: string): string | undefined {
  const lower = name.toLowerCase();
  if (lower === zone) return '';
  return lower.endsWith(`.${zone}`) ? name.slice(0, -(zone.length + 1)) : undefined;
}

function toInput(answer: Answer, zone: string): RecordInput | null {
  const name = relativeName(answer.name, zone);
  if (name === undefined) return null;
  const ttl_sec = roundRecordTtl((answer as { ttl?: number }).ttl ?? 0);
  switch (answer.type) {
    case 'A':
    case 'AAAA':
    case 'CNAME':
    case 'PTR':
      return { type: answer.type, name, target: answer.data, ttl_sec };
    case 'NS':
      return name === '' ? null : { type: 'NS', name, target: answer.data, ttl_sec };
    case 'MX': {
      const exchange = answer.data.exchange === '.' ? '' : answer.data.exchange;
      return exchange === '' ? { type: 'MX', name: '', target: '', priority: 0, ttl_sec } : { type: 'MX', name, target: exchange, priority: answer.data.preference, ttl_sec };
    }
    case 'TXT': {
      const parts = Array.isArray(answer.data) ? answer.data : [answer.data];
      return { type: 'TXT', name, target: parts.map((p) => p.toString()).join(''), ttl_sec };
    }
    case 'SRV': {
      const [service, protocol] = name.split('.');
      return {
        type: 'SRV', service: service?.replace(/^_/, ''), ...(protocol ? { protocol: protocol.replace(/^_/, '') } : {}),
        target: answer.data.target, priority: answer.data.priority, weight: answer.data.weight ?? 0, port: answer.data.port, ttl_sec,
      };
    }
    case 'CAA':
      return CAA_TAGS.has(answer.data.tag) ? { type: 'CAA', name, tag: answer.data.tag as RecordInput['tag'], target: answer.data.value, ttl_sec } : null;
    default:
      return null;
  }
}

/**
 * The zone as the service would hold it. A record of a hosted type that breaks the service's
 * rules fails the whole import (a 400 naming `remote_nameserver` and the record): nothing is
 * imported in part. `operation` (the import being served) leads to the server's own bundle.
 */
export function importedZone(answers: Answer[], zone: string, nameserver: string, operation: OperationSpec): ImportedZone {
  const soa = answers[0];
  if (!soa || soa.type !== 'SOA') throw new ApiError(400, [{ field: 'remote_nameserver', reason: `${nameserver} sent no SOA for ${zone}` }]);
  const records: RecordInput[] = [];
  for (const answer of answers.slice(1)) {
    const input = toInput(answer, zone);
    if (!input) continue;
    try {
      checkComplete(input, operation);
    } catch (error) {
      const details = error instanceof ApiError ? error.errors.map((d) => d.reason).join('; ') : (error as Error).message;
      throw new ApiError(400, [{ field: 'remote_nameserver', reason: `The ${answer.type} record ${answer.name} transferred from ${nameserver} cannot be held: ${details}` }]);
    }
    records.push(input);
  }
  return {
    soa_email: mailboxEmail(soa.data.rname),
    ttl_sec: roundDomainTiming(soa.ttl ?? 0),
    refresh_sec: roundDomainTiming(soa.data.refresh ?? 0),
    retry_sec: roundDomainTiming(soa.data.retry ?? 0),
    expire_sec: roundDomainTiming(soa.data.expire ?? 0),
    records,
  };
}
