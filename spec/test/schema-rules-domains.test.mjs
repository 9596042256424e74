// The rules of the Domains area that JSON Schema can hold, in the form of schema-rules.test.mjs:
// for each rule, a value the schema must accept and one it must reject, in the request view
// (create and update bodies, parameters) or the response view (what the service answers).
import { describe, expect, it } from 'vitest';
import { createSchemaViews } from '../lib/schema-views.mjs';
import { loadBundle } from './helpers.mjs';

const views = createSchemaViews(loadBundle());
const text = (n) => 'x'.repeat(n);
const label = (n) => 'a'.repeat(n);

const schema = (name) => `#/components/schemas/${name}`;
const parameter = (name) => `#/components/parameters/${name}/schema`;

const master = (extra = {}) => ({ domain: 'example.org', type: 'master', soa_email: 'admin@example.org', ...extra });
const slave = (extra = {}) => ({ domain: 'partner.example', type: 'slave', master_ips: ['192.0.2.53'], ...extra });
const srv = (extra = {}) => ({ type: 'SRV', service: 'sip', protocol: 'tcp', target: 'sip', priority: 10, weight: 5, port: 5060, ...extra });

// [view, pointer, rule, value, valid?]
const cases = [
  // Path parameters: {domainId} is an integer, except on clone and zone file where it is a string.
  ['request', parameter('DomainId'), '{domainId} is an integer on most operations', 1234, true],
  ['request', parameter('DomainId'), '{domainId} is an integer on most operations', 'example.org', false],
  ['request', parameter('DomainIdString'), '{domainId} is a string on clone and zone file', '1234', true],
  ['request', parameter('DomainIdString'), '{domainId} is a string on clone and zone file', 1234, false],
  ['request', parameter('DomainRecordId'), '{recordId} is an integer', 'www', false],

  // Domain create: required fields and the master/slave conditions.
  ['request', schema('DomainCreateRequest'), 'domain and type are required', { type: 'master', soa_email: 'admin@example.org' }, false],
  ['request', schema('DomainCreateRequest'), 'domain and type are required', { domain: 'example.org', soa_email: 'admin@example.org' }, false],
  ['request', schema('DomainCreateRequest'), 'master requires soa_email', master(), true],
  ['request', schema('DomainCreateRequest'), 'master requires soa_email', { domain: 'example.org', type: 'master' }, false],
  ['request', schema('DomainCreateRequest'), 'slave requires master_ips', slave(), true],
  ['request', schema('DomainCreateRequest'), 'slave requires master_ips', { domain: 'partner.example', type: 'slave' }, false],
  ['request', schema('DomainCreateRequest'), 'slave requires at least one master IP', slave({ master_ips: [] }), false],
  ['request', schema('DomainCreateRequest'), 'master_ips are IP addresses', slave({ master_ips: ['2001:db8::53'] }), true],
  ['request', schema('DomainCreateRequest'), 'master_ips are IP addresses', slave({ master_ips: ['ns1.example.org'] }), false],
  ['request', schema('DomainCreateRequest'), 'axfr_ips are IP addresses', master({ axfr_ips: ['198.51.100.7'] }), true],
  ['request', schema('DomainCreateRequest'), 'axfr_ips are IP addresses', master({ axfr_ips: ['any'] }), false],
  ['request', schema('DomainCreateRequest'), 'type is master or slave', master({ type: 'primary' }), false],
  ['request', schema('DomainCreateRequest'), 'status is active or disabled', master({ status: 'disabled' }), true],
  ['request', schema('DomainCreateRequest'), 'status is active or disabled', master({ status: 'paused' }), false],
  ['request', schema('DomainCreateRequest'), 'soa_email is an email address', master({ soa_email: 'admin' }), false],
  ['request', schema('DomainCreateRequest'), 'description is 1..255', master({ description: text(255) }), true],
  ['request', schema('DomainCreateRequest'), 'description is 1..255', master({ description: '' }), false],
  ['request', schema('DomainCreateRequest'), 'description is 1..255', master({ description: text(256) }), false],
  ['request', schema('DomainCreateRequest'), 'group is 1..50', master({ group: text(50) }), true],
  ['request', schema('DomainCreateRequest'), 'group is 1..50', master({ group: '' }), false],
  ['request', schema('DomainCreateRequest'), 'group is 1..50', master({ group: text(51) }), false],
  ['request', schema('DomainCreateRequest'), 'tags are tag labels (3..50)', master({ tags: ['ab'] }), false],
  ['request', schema('DomainCreateRequest'), 'each label of domain is at most 63 characters', master({ domain: `${label(63)}.org` }), true],
  ['request', schema('DomainCreateRequest'), 'each label of domain is at most 63 characters', master({ domain: `${label(64)}.org` }), false],
  ['request', schema('DomainCreateRequest'), 'domain is at most 255 characters', master({ domain: [63, 63, 63, 63].map(label).join('.') }), true],
  ['request', schema('DomainCreateRequest'), 'domain is at most 255 characters', master({ domain: [63, 63, 63, 64].map(label).join('.') }), false],
  ['request', schema('DomainCreateRequest'), 'domain labels are letters, digits and inner hyphens (RFC 1035)', master({ domain: '1-example.org' }), true],
  ['request', schema('DomainCreateRequest'), 'domain labels are letters, digits and inner hyphens (RFC 1035)', master({ domain: 'exa_mple.org' }), false],
  ['request', schema('DomainCreateRequest'), 'domain labels are letters, digits and inner hyphens (RFC 1035)', master({ domain: '-example.org' }), false],
  ['request', schema('DomainCreateRequest'), 'domain labels are letters, digits and inner hyphens (RFC 1035)', master({ domain: 'example..org' }), false],
  ['request', schema('DomainCreateRequest'), 'domain has no trailing period', master({ domain: 'example.org.' }), false],
  ['request', schema('DomainCreateRequest'), 'timings accept any non-negative integer (rounded up)', master({ ttl_sec: 3000, refresh_sec: 1, retry_sec: 0, expire_sec: 9999999 }), true],
  ['request', schema('DomainCreateRequest'), 'timings accept any non-negative integer (rounded up)', master({ refresh_sec: -1 }), false],
  ['request', schema('DomainCreateRequest'), 'timings accept any non-negative integer (rounded up)', master({ ttl_sec: 300.5 }), false],
  ['request', schema('DomainCreateRequest'), 'read-only and unknown fields are rejected', master({ id: 1234 }), false],
  ['request', schema('DomainCreateRequest'), 'read-only and unknown fields are rejected', master({ zone: 'x' }), false],

  // Domain update: nothing required; the body is checked against the type it states.
  ['request', schema('DomainUpdateRequest'), 'nothing is required on update', {}, true],
  ['request', schema('DomainUpdateRequest'), 'type slave with master_ips needs at least one', { type: 'slave', master_ips: [] }, false],
  ['request', schema('DomainUpdateRequest'), 'type slave with master_ips needs at least one', { type: 'slave', master_ips: ['192.0.2.53'] }, true],
  ['request', schema('DomainUpdateRequest'), 'without type, master_ips may be emptied (a master domain)', { master_ips: [] }, true],
  ['request', schema('DomainUpdateRequest'), 'description is 1..255', { description: '' }, false],
  ['request', schema('DomainUpdateRequest'), 'timings accept any non-negative integer', { expire_sec: 1000000 }, true],
  ['request', schema('DomainUpdateRequest'), 'status is active or disabled', { status: 'deleted' }, false],
  ['request', schema('DomainUpdateRequest'), 'read-only fields cannot be updated', { id: 1 }, false],

  // Domain response: valid timings only, the master/slave conditions hold.
  ['response', schema('Domain'), 'a domain as answered', domain(), true],
  ['response', schema('Domain'), 'timings are one of the valid values', domain({ ttl_sec: 3000 }), false],
  ['response', schema('Domain'), 'timings are one of the valid values', domain({ expire_sec: 2419200, retry_sec: 0 }), true],
  ['response', schema('Domain'), 'status is active or disabled', domain({ status: 'pending' }), false],
  ['response', schema('Domain'), 'type is master or slave', domain({ type: 'secondary' }), false],
  ['response', schema('Domain'), 'a master domain has an soa_email', domain({ soa_email: '' }), false],
  ['response', schema('Domain'), 'a slave domain has at least one master IP', domain({ type: 'slave', soa_email: '', master_ips: [] }), false],
  ['response', schema('Domain'), 'a slave domain has at least one master IP', domain({ type: 'slave', soa_email: '', master_ips: ['192.0.2.53'] }), true],
  ['response', schema('Domain'), 'description and group are empty when unset', domain({ description: '', group: '' }), true],
  ['response', schema('Domain'), 'every field is present', (({ axfr_ips, ...rest }) => rest)(domain()), false],

  // Clone, import, zone file.
  ['request', schema('DomainCloneRequest'), 'domain is required', {}, false],
  ['request', schema('DomainCloneRequest'), 'domain follows the rules of a domain name', { domain: 'shop.example' }, true],
  ['request', schema('DomainCloneRequest'), 'domain follows the rules of a domain name', { domain: `${label(64)}.example` }, false],
  ['request', schema('DomainCloneRequest'), 'domain follows the rules of a domain name', { domain: '' }, false],
  ['request', schema('DomainImportRequest'), 'domain and remote_nameserver are required', { domain: 'legacy.example' }, false],
  ['request', schema('DomainImportRequest'), 'domain and remote_nameserver are required', { domain: 'legacy.example', remote_nameserver: 'ns1.legacy.example' }, true],
  ['request', schema('DomainImportRequest'), 'remote_nameserver is not empty', { domain: 'legacy.example', remote_nameserver: '' }, false],
  ['request', schema('DomainImportRequest'), 'domain follows the rules of a domain name', { domain: 'legacy_example', remote_nameserver: '192.0.2.1' }, false],
  ['response', schema('DomainZoneFile'), 'the zone file is a list of lines', { zone_file: ['$TTL 300', 'www IN A 192.0.2.10'] }, true],
  ['response', schema('DomainZoneFile'), 'the zone file is a list of lines', { zone_file: '$TTL 300\nwww IN A 192.0.2.10' }, false],
  ['response', schema('DomainZoneFile'), 'the zone file is a list of lines', {}, false],

  // Record create: type required, per-type requirements.
  ['request', schema('DomainRecordCreateRequest'), 'type is required', { target: '192.0.2.10' }, false],
  ['request', schema('DomainRecordCreateRequest'), 'type is one of the record types', { type: 'SPF', target: 'v=spf1 -all' }, false],
  ['request', schema('DomainRecordCreateRequest'), 'A needs a target', { type: 'A', name: 'www' }, false],
  ['request', schema('DomainRecordCreateRequest'), 'A needs a target', { type: 'A', name: 'www', target: '192.0.2.10' }, true],
  ['request', schema('DomainRecordCreateRequest'), 'an A target is an IPv4 address or [remote_addr]', { type: 'A', target: '[remote_addr]' }, true],
  ['request', schema('DomainRecordCreateRequest'), 'an A target is an IPv4 address or [remote_addr]', { type: 'A', target: '2001:db8::10' }, false],
  ['request', schema('DomainRecordCreateRequest'), 'an A target is an IPv4 address or [remote_addr]', { type: 'A', target: '[remote-addr]' }, false],
  ['request', schema('DomainRecordCreateRequest'), 'an A target takes no trailing period', { type: 'A', target: '192.0.2.10.' }, false],
  ['request', schema('DomainRecordCreateRequest'), 'AAAA needs a target, an IPv6 address', { type: 'AAAA', target: '2001:db8::10' }, true],
  ['request', schema('DomainRecordCreateRequest'), 'AAAA needs a target, an IPv6 address', { type: 'AAAA', target: '192.0.2.10' }, false],
  ['request', schema('DomainRecordCreateRequest'), 'AAAA needs a target, an IPv6 address', { type: 'AAAA', name: 'www' }, false],
  ['request', schema('DomainRecordCreateRequest'), 'NS needs a target, a domain name', { type: 'NS', target: 'ns1.example.org' }, true],
  ['request', schema('DomainRecordCreateRequest'), 'NS needs a target, a domain name', { type: 'NS', name: 'sub' }, false],
  ['request', schema('DomainRecordCreateRequest'), 'NS needs a target, a domain name', { type: 'NS', target: 'ns1 example org' }, false],
  ['request', schema('DomainRecordCreateRequest'), 'an NS, MX or CNAME target may end with a period', { type: 'NS', target: 'ns1.example.org.' }, true],
  ['request', schema('DomainRecordCreateRequest'), 'MX needs a target', { type: 'MX', name: 'shop', priority: 10 }, false],
  ['request', schema('DomainRecordCreateRequest'), 'MX needs a target', { type: 'MX', name: 'shop', target: 'mx1.example.org.', priority: 10 }, true],
  ['request', schema('DomainRecordCreateRequest'), 'MX priority is optional (default 0)', { type: 'MX', target: 'mx1.example.org' }, true],
  ['request', schema('DomainRecordCreateRequest'), 'priority is 0..255', { type: 'MX', target: 'mx1.example.org', priority: 255 }, true],
  ['request', schema('DomainRecordCreateRequest'), 'priority is 0..255', { type: 'MX', target: 'mx1.example.org', priority: 256 }, false],
  ['request', schema('DomainRecordCreateRequest'), 'priority is 0..255', { type: 'MX', target: 'mx1.example.org', priority: -1 }, false],
  ['request', schema('DomainRecordCreateRequest'), 'a null MX has empty name and target', { type: 'MX', name: '', target: '' }, true],
  ['request', schema('DomainRecordCreateRequest'), 'a null MX has priority 0', { type: 'MX', name: '', target: '', priority: 0 }, true],
  ['request', schema('DomainRecordCreateRequest'), 'a null MX has priority 0', { type: 'MX', name: '', target: '', priority: 10 }, false],
  ['request', schema('DomainRecordCreateRequest'), 'a null MX has an empty name', { type: 'MX', name: 'shop', target: '' }, false],
  ['request', schema('DomainRecordCreateRequest'), 'an empty name is only for a null MX', { type: 'MX', name: '', target: 'mx1.example.org' }, false],
  ['request', schema('DomainRecordCreateRequest'), 'CNAME needs a name and a target', { type: 'CNAME', target: 'www.example.org' }, false],
  ['request', schema('DomainRecordCreateRequest'), 'CNAME needs a name and a target', { type: 'CNAME', name: 'blog' }, false],
  ['request', schema('DomainRecordCreateRequest'), 'CNAME needs a name and a target', { type: 'CNAME', name: 'blog', target: 'www.example.org.' }, true],
  ['request', schema('DomainRecordCreateRequest'), 'TXT needs a target', { type: 'TXT', name: '_dmarc' }, false],
  ['request', schema('DomainRecordCreateRequest'), 'TXT needs a target', { type: 'TXT', name: '_dmarc', target: 'v=DMARC1; p=reject' }, true],
  ['request', schema('DomainRecordCreateRequest'), 'TXT needs a target', { type: 'TXT', name: '_dmarc', target: '' }, false],
  ['request', schema('DomainRecordCreateRequest'), 'PTR needs no target', { type: 'PTR', name: '10' }, true],
  ['request', schema('DomainRecordCreateRequest'), 'SRV needs priority, weight, port, service and target', srv(), true],
  ['request', schema('DomainRecordCreateRequest'), 'SRV needs priority, weight, port, service and target', (({ priority, ...rest }) => rest)(srv()), false],
  ['request', schema('DomainRecordCreateRequest'), 'SRV needs priority, weight, port, service and target', (({ weight, ...rest }) => rest)(srv()), false],
  ['request', schema('DomainRecordCreateRequest'), 'SRV needs priority, weight, port, service and target', (({ port, ...rest }) => rest)(srv()), false],
  ['request', schema('DomainRecordCreateRequest'), 'SRV needs priority, weight, port, service and target', (({ service, ...rest }) => rest)(srv()), false],
  ['request', schema('DomainRecordCreateRequest'), 'SRV needs priority, weight, port, service and target', (({ target, ...rest }) => rest)(srv()), false],
  ['request', schema('DomainRecordCreateRequest'), 'SRV protocol is optional', (({ protocol, ...rest }) => rest)(srv()), true],
  ['request', schema('DomainRecordCreateRequest'), 'SRV service is not empty', srv({ service: '' }), false],
  ['request', schema('DomainRecordCreateRequest'), 'weight is 0..65535', srv({ weight: 65535 }), true],
  ['request', schema('DomainRecordCreateRequest'), 'weight is 0..65535', srv({ weight: 65536 }), false],
  ['request', schema('DomainRecordCreateRequest'), 'port is 0..65535', srv({ port: 0 }), true],
  ['request', schema('DomainRecordCreateRequest'), 'port is 0..65535', srv({ port: 65536 }), false],
  ['request', schema('DomainRecordCreateRequest'), 'an SRV target is a domain name, bare or fully qualified', srv({ target: 'sip.example.org.' }), true],
  ['request', schema('DomainRecordCreateRequest'), 'an SRV target is a domain name, bare or fully qualified', srv({ target: 'sip server' }), false],
  ['request', schema('DomainRecordCreateRequest'), 'CAA needs a tag and a target', { type: 'CAA', target: 'ca.example' }, false],
  ['request', schema('DomainRecordCreateRequest'), 'CAA needs a tag and a target', { type: 'CAA', tag: 'issue' }, false],
  ['request', schema('DomainRecordCreateRequest'), 'CAA needs a tag and a target', { type: 'CAA', tag: 'issue', target: 'ca.example' }, true],
  ['request', schema('DomainRecordCreateRequest'), 'tag is issue, issuewild or iodef', { type: 'CAA', tag: 'issuewild', target: 'ca.example' }, true],
  ['request', schema('DomainRecordCreateRequest'), 'tag is issue, issuewild or iodef', { type: 'CAA', tag: 'issuer', target: 'ca.example' }, false],
  ['request', schema('DomainRecordCreateRequest'), 'a CAA name may be empty (the whole domain)', { type: 'CAA', name: '', tag: 'issue', target: 'ca.example' }, true],
  ['request', schema('DomainRecordCreateRequest'), 'a CAA target takes no trailing period', { type: 'CAA', tag: 'issue', target: 'ca.example.' }, false],
  ['request', schema('DomainRecordCreateRequest'), 'an iodef target is an http(s) or mailto URL', { type: 'CAA', tag: 'iodef', target: 'mailto:security@example.org' }, true],
  ['request', schema('DomainRecordCreateRequest'), 'an iodef target is an http(s) or mailto URL', { type: 'CAA', tag: 'iodef', target: 'https://example.org/caa-report' }, true],
  ['request', schema('DomainRecordCreateRequest'), 'an iodef target is an http(s) or mailto URL', { type: 'CAA', tag: 'iodef', target: 'security@example.org' }, false],
  ['request', schema('DomainRecordCreateRequest'), 'an issue target is the issuer\'s domain', { type: 'CAA', tag: 'issue', target: 'https://ca.example' }, false],
  ['request', schema('DomainRecordCreateRequest'), 'priority is only for MX and SRV', { type: 'A', target: '192.0.2.10', priority: 0 }, false],
  ['request', schema('DomainRecordCreateRequest'), 'priority is only for MX and SRV', { type: 'CAA', tag: 'issue', target: 'ca.example', priority: 0 }, false],
  ['request', schema('DomainRecordCreateRequest'), 'weight, port, service and protocol are only for SRV', { type: 'MX', target: 'mx1.example.org', weight: 1 }, false],
  ['request', schema('DomainRecordCreateRequest'), 'weight, port, service and protocol are only for SRV', { type: 'A', target: '192.0.2.10', port: 80 }, false],
  ['request', schema('DomainRecordCreateRequest'), 'weight, port, service and protocol are only for SRV', { type: 'CNAME', name: 'blog', target: 'www.example.org', service: 'http' }, false],
  ['request', schema('DomainRecordCreateRequest'), 'weight, port, service and protocol are only for SRV', { type: 'TXT', target: 'hello', protocol: 'tcp' }, false],
  ['request', schema('DomainRecordCreateRequest'), 'tag is only for CAA', { type: 'TXT', target: 'hello', tag: 'issue' }, false],
  ['request', schema('DomainRecordCreateRequest'), 'tag is only for CAA', srv({ tag: 'issue' }), false],
  ['request', schema('DomainRecordCreateRequest'), 'name is 1..100', { type: 'A', name: text(100), target: '192.0.2.10' }, true],
  ['request', schema('DomainRecordCreateRequest'), 'name is 1..100', { type: 'A', name: text(101), target: '192.0.2.10' }, false],
  ['request', schema('DomainRecordCreateRequest'), 'name is 1..100', { type: 'A', name: '', target: '192.0.2.10' }, false],
  ['request', schema('DomainRecordCreateRequest'), 'name is 1..100', { type: 'TXT', name: '', target: 'hello' }, false],
  ['request', schema('DomainRecordCreateRequest'), 'ttl_sec accepts any non-negative integer (rounded)', { type: 'A', target: '192.0.2.10', ttl_sec: 3000 }, true],
  ['request', schema('DomainRecordCreateRequest'), 'ttl_sec accepts any non-negative integer (rounded)', { type: 'A', target: '192.0.2.10', ttl_sec: -300 }, false],
  ['request', schema('DomainRecordCreateRequest'), 'read-only and unknown fields are rejected', { type: 'A', target: '192.0.2.10', id: 5678 }, false],
  ['request', schema('DomainRecordCreateRequest'), 'read-only and unknown fields are rejected', { type: 'A', target: '192.0.2.10', domain_id: 1234 }, false],

  // Record update: nothing required; type-dependent rules apply when the body states the type.
  ['request', schema('DomainRecordUpdateRequest'), 'nothing is required on update', {}, true],
  ['request', schema('DomainRecordUpdateRequest'), 'nothing is required on update, even for SRV', { type: 'SRV', weight: 10 }, true],
  ['request', schema('DomainRecordUpdateRequest'), 'without type, the record\'s own type applies (service checks it)', { priority: 20 }, true],
  ['request', schema('DomainRecordUpdateRequest'), 'fields of other types are rejected when type is sent', { type: 'A', priority: 20 }, false],
  ['request', schema('DomainRecordUpdateRequest'), 'fields of other types are rejected when type is sent', { type: 'SRV', tag: 'issue' }, false],
  ['request', schema('DomainRecordUpdateRequest'), 'the target has the form of the type sent', { type: 'AAAA', target: '192.0.2.10' }, false],
  ['request', schema('DomainRecordUpdateRequest'), 'ranges hold without type', { priority: 256 }, false],
  ['request', schema('DomainRecordUpdateRequest'), 'ranges hold without type', { port: 65536 }, false],
  ['request', schema('DomainRecordUpdateRequest'), 'name is at most 100 characters', { name: text(101) }, false],
  ['request', schema('DomainRecordUpdateRequest'), 'tag is issue, issuewild or iodef', { tag: 'critical' }, false],
  ['request', schema('DomainRecordUpdateRequest'), 'read-only fields cannot be updated', { created: '2018-01-01T00:01:01' }, false],

  // Record response.
  ['response', schema('DomainRecord'), 'a record as answered', record(), true],
  ['response', schema('DomainRecord'), 'ttl_sec is one of the valid values', record({ ttl_sec: 3000 }), false],
  ['response', schema('DomainRecord'), 'ttl_sec is one of the valid values', record({ ttl_sec: 0 }), false],
  ['response', schema('DomainRecord'), 'ttl_sec is one of the valid values', record({ ttl_sec: 2419200 }), true],
  ['response', schema('DomainRecord'), 'service and protocol are null except on SRV', record({ service: '_sip' }), false],
  ['response', schema('DomainRecord'), 'service and protocol are null except on SRV', record({ protocol: '_tcp' }), false],
  ['response', schema('DomainRecord'), 'an SRV record has a service', record({ type: 'SRV', name: '_sip._tcp', target: 'sip.example.org', service: null, protocol: '_tcp' }), false],
  ['response', schema('DomainRecord'), 'an SRV record has a service', record({ type: 'SRV', name: '_sip._tcp', target: 'sip.example.org', service: '_sip', protocol: '_tcp', priority: 10, weight: 5, port: 5060 }), true],
  ['response', schema('DomainRecord'), 'tag is null except on CAA', record({ tag: 'issue' }), false],
  ['response', schema('DomainRecord'), 'a CAA record has a tag', record({ type: 'CAA', name: '', target: 'ca.example', tag: null }), false],
  ['response', schema('DomainRecord'), 'a CAA record has a tag', record({ type: 'CAA', name: '', target: 'ca.example', tag: 'iodef' }), true],
  ['response', schema('DomainRecord'), 'tag is issue, issuewild or iodef', record({ type: 'CAA', target: 'ca.example', tag: 'policy' }), false],
  ['response', schema('DomainRecord'), 'a null MX has an empty name and priority 0', record({ type: 'MX', name: '', target: '', priority: 0 }), true],
  ['response', schema('DomainRecord'), 'a null MX has an empty name and priority 0', record({ type: 'MX', name: '', target: '', priority: 10 }), false],
  ['response', schema('DomainRecord'), 'priority is 0..255', record({ type: 'MX', target: 'mx1.example.org', priority: 300 }), false],
  ['response', schema('DomainRecord'), 'weight and port are 0..65535', record({ weight: 70000 }), false],
  ['response', schema('DomainRecord'), 'every field is present', (({ tag, ...rest }) => rest)(record()), false],
];

function domain(extra = {}) {
  return {
    id: 1234, domain: 'example.org', type: 'master', status: 'active', description: '', group: '', tags: [],
    soa_email: 'admin@example.org', master_ips: [], axfr_ips: [], ttl_sec: 300, refresh_sec: 0, retry_sec: 0, expire_sec: 0, ...extra,
  };
}

function record(extra = {}) {
  return {
    id: 5678, type: 'A', name: 'www', target: '192.0.2.10', priority: 0, weight: 0, port: 0, service: null, protocol: null,
    ttl_sec: 300, tag: null, created: '2018-01-01T00:01:01', updated: '2018-01-01T00:01:01', ...extra,
  };
}

describe('Domains rules held by the schemas', () => {
  const title = (pointer, rule, value, valid) => `${pointer.replace('#/components/', '')}: ${rule} (${valid ? 'accepts' : 'rejects'} ${JSON.stringify(value)})`;
  it.each(cases.map(([view, pointer, rule, value, valid]) => [title(pointer, rule, value, valid), { view, pointer, value, valid }]))('%s', (_, { view, pointer, value, valid }) => {
    const { valid: actual, errors } = views.validate(view, pointer, value);
    expect(actual, JSON.stringify({ view, value, errors: errors.map((e) => e.message) })).toBe(valid);
  });
});
