// The rules of DNS records the schemas cannot hold: what the service completes (SRV underscores
// and name, a bare SRV target, trailing periods, `[remote_addr]`), the rounding of `ttl_sec`, and
// the check of a record as it stands after a partial update against the create schema of the
// bundle (so an update without `type` meets the same per-type rules as a create).
import { badRequest, ApiError } from '../../core/errors.js';
import { specOf } from '../../core/spec.js';
import type { OperationSpec } from '../../core/spec.js';
import type { RecordRow, RecordType, RecordValues } from './store.js';

/** The values a domain's four timings may hold (0: the field's default). */
export const DOMAIN_TIMINGS = [0, 300, 3600, 7200, 14400, 28800, 57600, 86400, 172800, 345600, 604800, 1209600, 2419200];
const RECORD_TTLS = DOMAIN_TIMINGS.slice(1);

/** A domain timing is rounded up to the next valid value (beyond the largest: the largest). */
export function roundDomainTiming(value: number): number {
  return DOMAIN_TIMINGS.find((valid) => valid >= value) ?? DOMAIN_TIMINGS[DOMAIN_TIMINGS.length - 1]!;
}

/**
 * A record's TTL is rounded to the nearest valid value (a tie goes up). 0 keeps the zone's
 * default, which is also what a record created without `ttl_sec` holds.
 */
export function roundRecordTtl(value: number): number {
  if (value === 0) return 0;
  let best = RECORD_TTLS[0]!;
  for (const valid of RECORD_TTLS) if (Math.abs(valid - value) <= Math.abs(best - value)) best = valid;
  return best;
}

/** A record as a create request states it (the fields of `DomainRecordCreateRequest`). */
export interface RecordInput {
  type: RecordType;
  name?: string;
  target?: string;
  priority?: number;
  weight?: number;
  port?: number;
  service?: string;
  protocol?: string | null;
  ttl_sec?: number;
  tag?: 'issue' | 'issuewild' | 'iodef';
}

const usesPriority = (type: RecordType) => type === 'MX' || type === 'SRV';
/** The request-side fields each type takes beyond type, target and ttl_sec. */
function fieldsOf(type: RecordType): (keyof RecordInput)[] {
  switch (type) {
    case 'MX': return ['name', 'priority'];
    case 'SRV': return ['priority', 'weight', 'port', 'service', 'protocol'];
    case 'CAA': return ['name', 'tag'];
    default: return ['name'];
  }
}

const withoutUnderscore = (value: string | null) => (value === null ? undefined : value.replace(/^_/, ''));

/**
 * The record as it stands after an update, in request form: the stored values of the fields the
 * resulting type takes, overlaid with the body.
 */
export function mergedRecord(row: RecordRow, body: Partial<RecordInput>): RecordInput {
  const type = body.type ?? row.type;
  const stored: Partial<RecordInput> = { target: row.target, ttl_sec: row.ttl_sec };
  for (const field of fieldsOf(type)) {
    if (field === 'name') { if (row.type !== 'SRV') stored.name = row.name; }
    else if (field === 'service') { if (row.service !== null) stored.service = withoutUnderscore(row.service); }
    else if (field === 'protocol') { if (row.protocol !== null) stored.protocol = withoutUnderscore(row.protocol); }
    else if (field === 'tag') { if (row.tag !== null) stored.tag = row.tag; }
    else if (field === 'priority') { if (usesPriority(row.type)) stored.priority = row.priority; }
    else if (row.type === 'SRV') stored[field] = row[field] as never;
  }
  if (row.type !== type) {
    // A target of another type's form is not carried over (an IP is no mail server); the body must say it.
    delete stored.target;
  }
  return { ...stored, ...body, type } as RecordInput;
}

/**
 * A 400 naming every rule of its type the record, as it would stand, breaks: the bundle's
 * `DomainRecordCreateRequest` (request view), checked by the validators of the server's own
 * bundle, the one the operation being served (`ctx.operation`) belongs to.
 */
export function checkComplete(record: RecordInput, operation: OperationSpec): void {
  const problems = specOf(operation).validation.forSchema('#/components/schemas/DomainRecordCreateRequest')(record);
  if (!problems.length) return;
  throw new ApiError(400, problems.map((d) => ({ ...d, reason: `${d.reason} (for a ${record.type} record as it would stand after this update)` })));
}

/** The IPv4 address a request came from, for the target `[remote_addr]`. */
export function remoteIpv4(address: string | undefined): string | undefined {
  const plain = address?.replace(/^::ffff:/, '');
  return plain && /^\d{1,3}(\.\d{1,3}){3}$/.test(plain) ? plain : undefined;
}

export const REMOTE_ADDR = '[remote_addr]';

/**
 * What the service stores for a record: SRV `service` and `protocol` with their underscore and
 * the SRV name made of them; a bare SRV target completed with the domain; a trailing period
 * removed (the stored name is fully qualified without it); `[remote_addr]` replaced.
 */
export function recordValues(domain: string, input: RecordInput, remoteAddress: string | undefined): RecordValues {
  const { type } = input;
  let target = input.target ?? '';
  if (type === 'A' && target === REMOTE_ADDR) {
    const ip = remoteIpv4(remoteAddress);
    if (!ip) throw badRequest(`target ${REMOTE_ADDR} stands for the IPv4 address the request comes from, and this request came from ${remoteAddress ?? 'an unknown address'}`, 'target');
    target = ip;
  }
  if (type !== 'A' && type !== 'AAAA' && type !== 'CAA') target = target.replace(/\.$/, '');
  if (type === 'SRV' && target !== '' && !target.includes('.')) target = `${target}.${domain}`;
  const service = type === 'SRV' && input.service !== undefined ? `_${input.service}` : null;
  const protocol = type === 'SRV' && input.protocol ? `_${input.protocol}` : null;
  return {
    type,
    name: type === 'SRV' ? [service, protocol].filter(Boolean).join('.') : input.name ?? '',
    target,
    priority: usesPriority(type) ? input.priority ?? 0 : 0,
    weight: type === 'SRV' ? input.weight ?? 0 : 0,
    port: type === 'SRV' ? input.port ?? 0 : 0,
    service,
    protocol,
    ttl_sec: roundRecordTtl(input.ttl_sec ?? 0),
    tag: type === 'CAA' ? input.tag ?? null : null,
  };
}

export const isNullMx = (record: Pick<RecordValues, 'type' | 'target'>) => record.type === 'MX' && record.target === '';

/**
 * The rules between a record and the other records of its domain (`others`, the record itself
 * left out): a CNAME's name is used by no other record (nor may another record take a CNAME's
 * name), and a null MX is the domain's only MX.
 */
export function checkAmongOthers(record: RecordValues, others: Pick<RecordRow, 'type' | 'name' | 'target'>[]): void {
  const sameName = others.filter((o) => o.name.toLowerCase() === record.name.toLowerCase());
  if (record.type === 'CNAME' && sameName.length) {
    throw badRequest(`name ${JSON.stringify(record.name)} is already used by a ${sameName[0]!.type} record of this domain; a CNAME's name must be unique`, 'name');
  }
  const cname = sameName.find((o) => o.type === 'CNAME');
  if (cname) throw badRequest(`name ${JSON.stringify(record.name)} is the name of a CNAME record of this domain, which must stay unique`, 'name');
  if (record.type !== 'MX') return;
  const otherMx = others.filter((o) => o.type === 'MX');
  if (isNullMx(record) && otherMx.length) {
    throw badRequest(`A null MX record (empty target) can only exist alone: remove the domain's ${otherMx.length} other MX record(s) first`, 'target');
  }
  if (!isNullMx(record) && otherMx.some(isNullMx)) {
    throw badRequest('The domain has a null MX record (it accepts no mail): no other MX record can be added while it exists', 'type');
  }
}
