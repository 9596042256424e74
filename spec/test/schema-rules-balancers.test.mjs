// The Balancers rules of the requirements that JSON Schema can hold, each with a value the schema
// must accept and one it must reject (the form of schema-rules.test.mjs).
import { describeSchemaRules, parameter, schema, text, views } from './schema-rules-runner.mjs';

const CERT = '-----BEGIN CERTIFICATE-----\nMIIBvTCCAWOgAwIBAgIUZXhhbXBsZQ==\n-----END CERTIFICATE-----\n';
const KEY = '-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49==\n-----END PRIVATE KEY-----\n';
const tls = { ssl_cert: CERT, ssl_key: KEY };
const node = { address: '192.168.210.120:80', label: 'web-1' };

// Request schemas by operation.
const balancerCreate = schema('BalancerCreateRequest');
const balancerUpdate = schema('BalancerUpdateRequest');
const configCreate = schema('BalancerConfigCreateRequest');
const configUpdate = schema('BalancerConfigUpdateRequest');
const rebuild = schema('BalancerConfigRebuildRequest');
const nodeCreate = schema('BalancerNodeCreateRequest');
const nodeUpdate = schema('BalancerNodeUpdateRequest');

// Each rule of a config's settings holds in every body that carries them.
const settingsBodies = [
  ['config create', configCreate, (fields) => fields],
  ['config update', configUpdate, (fields) => fields],
  ['rebuild', rebuild, (fields) => ({ ...fields, nodes: [{ id: 1 }] })],
  ['new balancer config', balancerCreate, (fields) => ({ region: 'us-east', configs: [{ ...fields, nodes: [node] }] })],
];
// One rule on one field: [rule, {field: value}, valid?] for each [value, valid?].
const values = (rule, field, list) => list.map(([value, valid]) => [rule, { [field]: value }, valid]);
const settingsRules = [
  ...values('port is 1..65535', 'port', [[1, true], [65535, true], [0, false], [65536, false]]),
  ...values('protocol is http, https or tcp', 'protocol', [['http', true], ['tcp', true], ['udp', false]]),
  ...values('algorithm is roundrobin, leastconn or source', 'algorithm', [['roundrobin', true], ['leastconn', true], ['source', true], ['random', false]]),
  ...values('check is none, connection, http or http_body', 'check', [['none', true], ['connection', true], ['http', true], ['http_body', true], ['tcp', false]]),
  ...values('check_attempts is 1..30', 'check_attempts', [[1, true], [30, true], [0, false], [31, false]]),
  ...values('check_timeout is 1..30', 'check_timeout', [[1, true], [30, true], [0, false], [31, false]]),
  ...values('check_interval is a whole number of seconds from 1', 'check_interval', [[10, true], [0, false], [2.5, false]]),
  ...values('check_path is a string', 'check_path', [['/health', true], [7, false]]),
  ...values('check_body is a string', 'check_body', [['ok', true], [false, false]]),
  ...values('check_passive is a boolean', 'check_passive', [[true, true], ['yes', false]]),
  ...values('cipher_suite is recommended or legacy', 'cipher_suite', [['recommended', true], ['legacy', true], ['modern', false]]),
  ...values('proxy_protocol is none, v1 or v2', 'proxy_protocol', [['none', true], ['v1', true], ['v2', true], ['v3', false]]),
  ...values('stickiness is none, table or http_cookie', 'stickiness', [['none', true], ['table', true], ['http_cookie', true], ['ip', false]]),
  ['http_cookie stickiness is for http and https only', { protocol: 'http', stickiness: 'http_cookie' }, true],
  ['http_cookie stickiness is for http and https only', { protocol: 'tcp', stickiness: 'http_cookie' }, false],
  ['http_cookie stickiness is for http and https only', { protocol: 'tcp', stickiness: 'table' }, true],
  ['https takes a certificate and a key', { protocol: 'https', ...tls }, true],
  ['https certificate and key are not null', { protocol: 'https', ssl_cert: null, ssl_key: null }, false],
  ['http and tcp take no certificate or key', { protocol: 'http', ...tls }, false],
  ['http and tcp take no certificate or key', { protocol: 'tcp', ...tls }, false],
  ['http and tcp take no certificate or key (null is none)', { protocol: 'tcp', ssl_cert: null, ssl_key: null }, true],
  ['ssl_cert and ssl_key come together', { protocol: 'https', ssl_cert: CERT }, false],
  ['ssl_cert is a PEM certificate', { protocol: 'https', ...tls, ssl_cert: 'not a certificate' }, false],
  ['ssl_cert may carry its chain', { protocol: 'https', ...tls, ssl_cert: CERT + CERT }, true],
  ['ssl_key is a PEM private key', { protocol: 'https', ...tls, ssl_key: KEY.replace(/PRIVATE KEY/g, 'PUBLIC KEY') }, false],
  ['read-only fields cannot be sent', { id: 1 }, false],
  ['read-only fields cannot be sent', { ssl_commonname: 'www.example.org' }, false],
  ['read-only fields cannot be sent', { nodes_status: { up: 1, down: 0 } }, false],
  ['unknown fields are rejected', { udp_check_port: 80 }, false],
];

// Each rule of a node's fields holds in every body that carries nodes.
const nodeBodies = [
  ['node create', nodeCreate, (fields) => ({ ...node, ...fields })],
  ['node update', nodeUpdate, (fields) => fields],
  ['rebuild node', rebuild, (fields) => ({ nodes: [{ id: 54321, ...fields }] })],
  ['new balancer node', balancerCreate, (fields) => ({ region: 'us-east', configs: [{ nodes: [{ ...node, ...fields }] }] })],
];
const privateAddresses = [
  ['10.0.0.1:8080', true], ['172.16.0.1:443', true], ['172.31.255.255:65535', true], ['192.168.0.1:1', true],
  ['203.0.113.10:80', false], ['172.32.0.1:80', false], ['192.169.0.1:80', false], ['10.0.0.256:80', false],
  ['192.168.210.120', false], ['192.168.210.120:0', false], ['192.168.210.120:65536', false], ['[fd00::1]:80', false],
];
const nodeRules = [
  ...values('address is a private IPv4 address with a port', 'address', privateAddresses),
  ...values('label is 3..32', 'label', [['abc', true], [text(32), true], ['ab', false], [text(33), false]]),
  ...values('mode is accept, reject, drain or backup', 'mode', [['accept', true], ['reject', true], ['drain', true], ['backup', true], ['standby', false]]),
  ...values('weight is 1..255', 'weight', [[1, true], [255, true], [0, false], [256, false], [50.5, false]]),
  ['status is read-only', { status: 'UP' }, false],
  ['a node cannot move to another config', { config_id: 4570 }, false],
];

const forEachBody = (bodies, rules) => bodies.flatMap(([body, pointer, wrap]) => rules.map(([rule, fields, valid]) => ['request', pointer, `${rule} (${body})`, wrap(fields), valid]));

// [view, pointer, rule, value, valid?]
const cases = [
  ...forEachBody(settingsBodies, settingsRules),
  ...forEachBody(nodeBodies, nodeRules),

  // Balancer
  ['request', balancerCreate, 'region is required', { label: 'balancer-web' }, false],
  ['request', balancerCreate, 'region is required', { region: 'us-east' }, true],
  ['request', balancerCreate, 'label is 3..32', { region: 'us-east', label: 'abc' }, true],
  ['request', balancerCreate, 'label is 3..32', { region: 'us-east', label: text(32) }, true],
  ['request', balancerCreate, 'label is 3..32', { region: 'us-east', label: 'ab' }, false],
  ['request', balancerCreate, 'label is 3..32', { region: 'us-east', label: text(33) }, false],
  ['request', balancerCreate, 'client_conn_throttle is 0..20', { region: 'us-east', client_conn_throttle: 0 }, true],
  ['request', balancerCreate, 'client_conn_throttle is 0..20', { region: 'us-east', client_conn_throttle: 20 }, true],
  ['request', balancerCreate, 'client_conn_throttle is 0..20', { region: 'us-east', client_conn_throttle: 21 }, false],
  ['request', balancerCreate, 'client_conn_throttle is 0..20', { region: 'us-east', client_conn_throttle: -1 }, false],
  ['request', balancerCreate, 'tags are set by update only', { region: 'us-east', tags: ['production'] }, false],
  ['request', balancerCreate, 'transfer is not a create field', { region: 'us-east', transfer: { in: 0, out: 0, total: 0 } }, false],
  ['request', balancerCreate, 'each config has at least one node', { region: 'us-east', configs: [{ port: 80 }] }, false],
  ['request', balancerCreate, 'each config has at least one node', { region: 'us-east', configs: [{ port: 80, nodes: [] }] }, false],
  ['request', balancerCreate, 'each config has at least one node', { region: 'us-east', configs: [{ port: 80, nodes: [node] }] }, true],
  ['request', balancerCreate, 'a new config without protocol is http: no certificate', { region: 'us-east', configs: [{ ...tls, nodes: [node] }] }, false],
  ['request', balancerCreate, 'a new https config needs its certificate and key', { region: 'us-east', configs: [{ protocol: 'https', nodes: [node] }] }, false],
  ['request', balancerCreate, 'nodes of a new config need address and label', { region: 'us-east', configs: [{ nodes: [{ address: node.address }] }] }, false],
  ['request', balancerCreate, 'nodes of a new config carry no id', { region: 'us-east', configs: [{ nodes: [{ ...node, id: 1 }] }] }, false],
  ['request', balancerUpdate, 'no field is required', {}, true],
  ['request', balancerUpdate, 'tags can be updated', { tags: ['production'] }, true],
  ['request', balancerUpdate, 'tags are tag labels (3..50)', { tags: ['ab'] }, false],
  ['request', balancerUpdate, 'label is 3..32', { label: 'ab' }, false],
  ['request', balancerUpdate, 'client_conn_throttle is 0..20', { client_conn_throttle: 21 }, false],
  ['request', balancerUpdate, 'transfer is accepted in its read form', { transfer: { in: 28.91, out: 3.37, total: 32.28 } }, true],
  ['request', balancerUpdate, 'transfer is accepted in its read form', { transfer: { in: null, out: null, total: null } }, true],
  ['request', balancerUpdate, 'transfer is accepted in its read form', { transfer: { in: 1, out: 1, total: 2, month: 3 } }, false],
  ['request', balancerUpdate, 'transfer is accepted in its read form', { transfer: { in: 1 } }, false],
  ['request', balancerUpdate, 'region cannot be changed', { region: 'us-west' }, false],
  ['request', balancerUpdate, 'configs are not an update field', { configs: [] }, false],
  ['response', schema('Balancer'), 'transfer figures are null before traffic', { ...balancer(), transfer: { in: null, out: null, total: null } }, true],
  ['response', schema('Balancer'), 'ipv6 may be null', { ...balancer(), ipv6: null }, true],
  ['response', schema('Balancer'), 'ipv4 is an IPv4 address', { ...balancer(), ipv4: 'balancer-web' }, false],
  ['response', schema('Balancer'), 'transfer is always present', withoutKey(balancer(), 'transfer'), false],
  ['request', parameter('BalancerId'), 'balancer ids are integers', 4567, true],
  ['request', parameter('BalancerId'), 'balancer ids are integers', 'balancer-web', false],

  // Config: create, update and rebuild
  ['request', configCreate, 'no field is required', {}, true],
  ['request', configCreate, 'https requires ssl_cert and ssl_key', { protocol: 'https' }, false],
  ['request', configCreate, 'https requires ssl_cert and ssl_key', { protocol: 'https', ssl_key: KEY }, false],
  ['request', configCreate, 'protocol left out is http: no certificate', tls, false],
  ['request', configCreate, 'nodes may come with the config (the vendor client sends them)', { port: 80, nodes: [node] }, true],
  ['request', configCreate, 'nodes sent with the config are at least one', { port: 80, nodes: [] }, false],
  ['request', configCreate, 'nodes sent with the config follow the node rules', { port: 80, nodes: [{ label: 'web-1' }] }, false],
  ['request', configCreate, 'a field sent as null is not given', { port: null, protocol: null, ssl_cert: null, ssl_key: null }, true],
  ['request', configUpdate, 'no field is required', {}, true],
  ['request', configUpdate, 'https may keep the certificate it has', { protocol: 'https' }, true],
  ['request', configUpdate, 'a certificate and key can be replaced without restating protocol', tls, true],
  ['request', configUpdate, 'nodes are changed by rebuild', { nodes: [node] }, false],
  ['request', rebuild, 'nodes are required', { port: 80 }, false],
  ['request', rebuild, 'at least one node', { nodes: [] }, false],
  ['request', rebuild, 'a node with an id is updated: its fields are optional', { nodes: [{ id: 54321 }] }, true],
  ['request', rebuild, 'a node without an id is created: address and label required', { nodes: [{ address: node.address }] }, false],
  ['request', rebuild, 'a node without an id is created: address and label required', { nodes: [node] }, true],
  ['request', rebuild, 'kept and new nodes together', { nodes: [{ id: 54321, weight: 100 }, { ...node, mode: 'backup' }] }, true],
  ['response', schema('BalancerConfig'), 'certificate and key read <REDACTED>', { ...config(), protocol: 'https', ssl_cert: '<REDACTED>', ssl_key: '<REDACTED>' }, true],
  ['response', schema('BalancerConfig'), 'certificate and key read <REDACTED>', { ...config(), protocol: 'https', ...tls }, false],
  ['response', schema('BalancerConfig'), 'certificate and key are null without TLS', config(), true],
  ['response', schema('BalancerConfig'), 'nodes_status counts up and down', { ...config(), nodes_status: { up: 2 } }, false],
  ['response', schema('BalancerConfig'), 'nodes_status counts up and down', { ...config(), nodes_status: { up: -1, down: 0 } }, false],
  ['response', schema('BalancerConfig'), 'every field is always present', withoutKey(config(), 'ssl_fingerprint'), false],
  ['request', parameter('BalancerConfigId'), 'config ids are integers', 4568, true],
  ['request', parameter('BalancerConfigId'), 'config ids are integers', 1.5, false],

  // Node
  ['request', nodeCreate, 'address and label are required', node, true],
  ['request', nodeCreate, 'address and label are required', { address: node.address }, false],
  ['request', nodeCreate, 'address and label are required', { label: node.label }, false],
  ['request', nodeUpdate, 'no field is required', {}, true],
  ...['unknown', 'UP', 'DOWN'].map((status) => ['response', schema('BalancerNode'), 'status is unknown, UP or DOWN', { ...balancerNode(), status }, true]),
  ['response', schema('BalancerNode'), 'status is unknown, UP or DOWN', { ...balancerNode(), status: 'up' }, false],
  ['response', schema('BalancerNode'), 'config_id and balancer_id are always present', withoutKey(balancerNode(), 'config_id'), false],
  ['request', parameter('BalancerNodeId'), 'node ids are integers', 54321, true],
  ['request', parameter('BalancerNodeId'), 'node ids are integers', 'web-1', false],

  // Stats
  ['response', schema('BalancerStats'), 'series are [time, value] pairs', stats(), true],
  ['response', schema('BalancerStats'), 'series may be empty for a new balancer', { title: 'new', data: { connections: [], traffic: { in: [], out: [] } } }, true],
  ['response', schema('BalancerStats'), 'series are [time, value] pairs', { ...stats(), data: { ...stats().data, connections: [[1514764800000, 12.5, 3]] } }, false],
  ['response', schema('BalancerStats'), 'series are [time, value] pairs', { ...stats(), data: { ...stats().data, connections: [[1514764800000]] } }, false],
  ['response', schema('BalancerStats'), 'times are epoch milliseconds', { ...stats(), data: { ...stats().data, connections: [['2018-01-01T00:00:00', 12.5]] } }, false],
  ['response', schema('BalancerStats'), 'traffic has in and out', { ...stats(), data: { ...stats().data, traffic: { in: [] } } }, false],
];

function withoutKey(object, key) {
  const { [key]: _, ...rest } = object;
  return rest;
}

function balancer() {
  return {
    id: 4567, label: 'balancer-web', region: 'us-east', hostname: '203-0-113-20.ip.cloud.example', ipv4: '203.0.113.20', ipv6: '2001:db8::20',
    created: '2018-01-01T00:01:01', updated: '2018-01-01T00:01:01', client_conn_throttle: 0, transfer: { in: 28.91, out: 3.37, total: 32.28 }, tags: [],
  };
}

function config() {
  return {
    id: 4568, balancer_id: 4567, port: 80, protocol: 'http', algorithm: 'roundrobin', stickiness: 'table', check: 'http', check_interval: 30,
    check_timeout: 5, check_attempts: 3, check_path: '/health', check_body: '', check_passive: true, proxy_protocol: 'none', cipher_suite: 'recommended',
    ssl_commonname: '', ssl_fingerprint: '', ssl_cert: null, ssl_key: null, nodes_status: { up: 2, down: 0 },
  };
}

function balancerNode() {
  return { id: 54321, config_id: 4568, balancer_id: 4567, ...node, status: 'UP', weight: 50, mode: 'accept' };
}

function stats() {
  return { title: 'balancer-web', data: { connections: [[1514764800000, 12.5]], traffic: { in: [[1514764800000, 38200.4]], out: [[1514764800000, 251880.7]] } } };
}

describeSchemaRules('Balancers rules held by the schemas', cases);
