// The Managed rules of the requirements that JSON Schema can hold: for each rule, a value the
// schema must accept and one it must reject (the form of schema-rules.test.mjs).
import { describeSchemaRules, parameter, schema, text, views } from './schema-rules-runner.mjs';

const service = { address: 'https://example.org/health', label: 'web-frontend', service_type: 'url', timeout: 30 };
const privateService = (address) => ({ ...service, address, service_type: 'tcp' });
const without = (object, name) => Object.fromEntries(Object.entries(object).filter(([key]) => key !== name));

// [view, pointer, rule, value, valid?]
const cases = [
  // Path parameters
  ['request', parameter('ManagedContactId'), 'ids in paths are integers', 567, true],
  ['request', parameter('ManagedContactId'), 'ids in paths are integers', 'john', false],
  ['request', parameter('ManagedComputeId'), 'ids in paths are integers', 'web-1', false],

  // Managed Contact
  ['request', schema('ManagedContactRequest'), 'no field is required on create or update', {}, true],
  ['request', schema('ManagedContactRequest'), 'name is 2..64', { name: 'Jo' }, true],
  ['request', schema('ManagedContactRequest'), 'name is 2..64', { name: 'J' }, false],
  ['request', schema('ManagedContactRequest'), 'name is 2..64', { name: text(65) }, false],
  ['request', schema('ManagedContactRequest'), 'email is an email address', { email: 'john.doe@example.org' }, true],
  ['request', schema('ManagedContactRequest'), 'email is an email address', { email: 'john.doe' }, false],
  ['request', schema('ManagedContactRequest'), 'group is 2..50 or null', { group: null }, true],
  ['request', schema('ManagedContactRequest'), 'group is 2..50 or null', { group: 'a' }, false],
  ['request', schema('ManagedContactRequest'), 'group is 2..50 or null', { group: text(51) }, false],
  ['request', schema('ManagedContactRequest'), 'phone has a primary string and a secondary string or null', { phone: { primary: '555-0100', secondary: null } }, true],
  ['request', schema('ManagedContactRequest'), 'phone has a primary string and a secondary string or null', { phone: { primary: 5550100 } }, false],
  ['request', schema('ManagedContactRequest'), 'an optional field sent as null is not given', { phone: { primary: null }, group: null }, true],
  ['request', schema('ManagedContactRequest'), 'phone has a primary string and a secondary string or null', { phone: { mobile: '555-0100' } }, false],
  ['request', schema('ManagedContactRequest'), 'id and updated are read-only', { name: 'John Doe', id: 567 }, false],
  ['request', schema('ManagedContactRequest'), 'id and updated are read-only', { updated: '2018-01-01T00:01:01' }, false],
  ['response', schema('ManagedContact'), 'group and phone.secondary may be null', { ...contact(), group: null }, true],
  ['response', schema('ManagedContact'), 'phone carries primary and secondary', { ...contact(), phone: { primary: '555-0100' } }, false],
  ['response', schema('ManagedContact'), 'updated is a timestamp', { ...contact(), updated: '2018-01-01' }, false],

  // Managed Credential
  ['request', schema('ManagedCredentialCreateRequest'), 'label and password are required on create', { label: 'web-admin', password: 's3cr3t' }, true],
  ['request', schema('ManagedCredentialCreateRequest'), 'label and password are required on create', { password: 's3cr3t' }, false],
  ['request', schema('ManagedCredentialCreateRequest'), 'label and password are required on create', { label: 'web-admin', username: 'admin' }, false],
  ['request', schema('ManagedCredentialCreateRequest'), 'label is 2..75', { label: 'w', password: 's3cr3t' }, false],
  ['request', schema('ManagedCredentialCreateRequest'), 'label is 2..75', { label: text(76), password: 's3cr3t' }, false],
  ['request', schema('ManagedCredentialCreateRequest'), 'username is at most 5000', { label: 'web-admin', username: text(5000), password: 's3cr3t' }, true],
  ['request', schema('ManagedCredentialCreateRequest'), 'username is at most 5000', { label: 'web-admin', username: text(5001), password: 's3cr3t' }, false],
  ['request', schema('ManagedCredentialCreateRequest'), 'id and last_decrypted are read-only', { label: 'web-admin', password: 's3cr3t', last_decrypted: '2018-01-04T17:12:43' }, false],
  ['request', schema('ManagedCredentialUpdateRequest'), 'update takes the label only', { label: 'prod-database' }, true],
  ['request', schema('ManagedCredentialUpdateRequest'), 'update takes the label only', { password: 's3cr3t' }, false],
  ['request', schema('ManagedCredentialUpdateRequest'), 'update takes the label only', { label: 'prod-database', username: 'admin' }, false],
  ['request', schema('ManagedCredentialUpdateRequest'), 'label is 2..75', { label: 'p' }, false],
  ['request', schema('ManagedCredentialSecretRequest'), 'password is required on the username/password update', { username: 'dbadmin', password: 's3cr3t' }, true],
  ['request', schema('ManagedCredentialSecretRequest'), 'password is required on the username/password update', { username: 'dbadmin' }, false],
  ['request', schema('ManagedCredentialSecretRequest'), 'username is at most 5000', { username: text(5001), password: 's3cr3t' }, false],
  ['request', schema('ManagedCredentialSecretRequest'), 'the username/password update takes no label', { label: 'prod-database', password: 's3cr3t' }, false],
  ['response', schema('ManagedCredential'), 'last_decrypted is a timestamp or null', { ...credential(), last_decrypted: null }, true],
  ['response', schema('ManagedCredential'), 'last_decrypted is a timestamp or null', { ...credential(), last_decrypted: 'yesterday' }, false],
  ['response', schema('ManagedCredential'), 'username and password are never returned', { ...credential(), password: 's3cr3t' }, false],
  ['response', schema('ManagedCredential'), 'username and password are never returned', { ...credential(), username: 'admin' }, false],
  ['response', schema('ManagedCredentialCreateRequest'), 'username and password are write-only', { label: 'web-admin', username: 'admin' }, false],
  ['response', schema('ManagedCredentialSecretRequest'), 'username and password are write-only', { password: 's3cr3t' }, false],

  // Managed SSH key
  ['response', schema('ManagedSshKey'), 'the body is {ssh_key}', { ssh_key: 'ssh-ed25519 AAAA managed@cloud.example' }, true],
  ['response', schema('ManagedSshKey'), 'the body is {ssh_key}', {}, false],

  // Managed Issue
  ['response', schema('ManagedIssue'), 'entity is {id, label, type, url}', issue(), true],
  ['response', schema('ManagedIssue'), 'entity is {id, label, type, url}', { ...issue(), entity: { id: 11223, label: 'ticket', type: 'ticket' } }, false],
  ['response', schema('ManagedIssue'), 'services are integer ids', { ...issue(), services: ['654'] }, false],

  // Managed Compute Settings
  ['request', schema('ManagedComputeSettingsUpdateRequest'), 'update takes the ssh object', { ssh: { access: true, user: 'root', ip: '192.0.2.10', port: 22 } }, true],
  ['request', schema('ManagedComputeSettingsUpdateRequest'), 'update takes the ssh object', { label: 'web-1' }, false],
  ['request', schema('ManagedComputeSettingsUpdateRequest'), 'ssh holds access, user, ip and port only', { ssh: { shell: '/bin/sh' } }, false],
  ['request', schema('ManagedComputeSettingsUpdateRequest'), 'ssh.access is a boolean', { ssh: { access: 'yes' } }, false],
  ['request', schema('ManagedComputeSettingsUpdateRequest'), 'ssh.port is a TCP port', { ssh: { port: 0 } }, false],
  ['request', schema('ManagedComputeSettingsUpdateRequest'), 'ssh.port is a TCP port', { ssh: { port: 65536 } }, false],
  ['request', schema('ManagedComputeSettingsUpdateRequest'), 'ssh.port is a TCP port', { ssh: { port: 65535 } }, true],
  ['response', schema('ManagedComputeSettings'), 'ssh carries access, user, ip and port', computeSettings(), true],
  ['response', schema('ManagedComputeSettings'), 'ssh carries access, user, ip and port', { ...computeSettings(), ssh: { access: true, user: 'root', ip: '192.0.2.10' } }, false],

  // Managed Service
  ['request', schema('ManagedServiceCreateRequest'), 'address, label, service_type and timeout are required', service, true],
  ...['address', 'label', 'service_type', 'timeout'].map((name) => ['request', schema('ManagedServiceCreateRequest'), `${name} is required`, without(service, name), false]),
  ['request', schema('ManagedServiceCreateRequest'), 'address is a URL of at least 3 characters', { ...service, address: 'example org' }, false],
  ['request', schema('ManagedServiceCreateRequest'), 'address is a URL of at least 3 characters', { ...service, address: 'a:' }, false],
  ['request', schema('ManagedServiceCreateRequest'), 'address is a URL of at least 3 characters', { ...service, address: 'a:b' }, true],
  ['request', schema('ManagedServiceCreateRequest'), 'service_type is url or tcp', { ...service, service_type: 'tcp' }, true],
  ['request', schema('ManagedServiceCreateRequest'), 'service_type is url or tcp', { ...service, service_type: 'http' }, false],
  ['request', schema('ManagedServiceCreateRequest'), 'timeout is 1..255', { ...service, timeout: 1 }, true],
  ['request', schema('ManagedServiceCreateRequest'), 'timeout is 1..255', { ...service, timeout: 255 }, true],
  ['request', schema('ManagedServiceCreateRequest'), 'timeout is 1..255', { ...service, timeout: 0 }, false],
  ['request', schema('ManagedServiceCreateRequest'), 'timeout is 1..255', { ...service, timeout: 256 }, false],
  ['request', schema('ManagedServiceCreateRequest'), 'body is at most 100 or null', { ...service, body: text(100) }, true],
  ['request', schema('ManagedServiceCreateRequest'), 'body is at most 100 or null', { ...service, body: null }, true],
  ['request', schema('ManagedServiceCreateRequest'), 'body is at most 100 or null', { ...service, body: text(101) }, false],
  ['request', schema('ManagedServiceCreateRequest'), 'label is 3..64', { ...service, label: 'ab' }, false],
  ['request', schema('ManagedServiceCreateRequest'), 'label is 3..64', { ...service, label: text(65) }, false],
  ['request', schema('ManagedServiceCreateRequest'), 'consultation_group is at most 50', { ...service, consultation_group: text(50) }, true],
  ['request', schema('ManagedServiceCreateRequest'), 'consultation_group is at most 50', { ...service, consultation_group: text(51) }, false],
  ['request', schema('ManagedServiceCreateRequest'), 'credentials are integer ids', { ...service, credentials: [9991] }, true],
  ['request', schema('ManagedServiceCreateRequest'), 'credentials are integer ids', { ...service, credentials: ['prod-database'] }, false],
  ['request', schema('ManagedServiceCreateRequest'), 'notes may be null', { ...service, notes: null }, true],
  ['request', schema('ManagedServiceCreateRequest'), 'region is required for a private IP address', privateService('tcp://10.0.0.5:5432'), false],
  ['request', schema('ManagedServiceCreateRequest'), 'region is required for a private IP address', { ...privateService('tcp://10.0.0.5:5432'), region: 'us-east' }, true],
  ['request', schema('ManagedServiceCreateRequest'), 'region is required for a private IP address', { ...privateService('http://172.16.0.1/health'), region: 'us-east' }, true],
  ['request', schema('ManagedServiceCreateRequest'), 'region is required for a private IP address', { ...privateService('https://172.31.255.254:8443/'), region: 'us-east' }, true],
  ['request', schema('ManagedServiceCreateRequest'), 'region is required for a private IP address', privateService('http://192.168.1.20'), false],
  ['request', schema('ManagedServiceCreateRequest'), 'region is required for a private IP address', { ...privateService('http://192.168.1.20'), region: 'us-east' }, true],
  ['request', schema('ManagedServiceCreateRequest'), 'region is not allowed otherwise', { ...service, region: 'us-east' }, false],
  ['request', schema('ManagedServiceCreateRequest'), 'region is not allowed otherwise', { ...privateService('tcp://192.0.2.10:22'), region: 'us-east' }, false],
  ['request', schema('ManagedServiceCreateRequest'), 'region is not allowed otherwise', { ...privateService('http://172.32.0.1/'), region: 'us-east' }, false],
  ['request', schema('ManagedServiceCreateRequest'), 'region is not allowed otherwise', { ...privateService('http://10.example.org/'), region: 'us-east' }, false],
  ['request', schema('ManagedServiceCreateRequest'), 'region is not allowed otherwise', { ...privateService('http://10.0.0.5.example.org/'), region: 'us-east' }, false],
  ['request', schema('ManagedServiceCreateRequest'), 'region is not allowed otherwise', privateService('http://10.0.0.5.example.org/'), true],
  ['request', schema('ManagedServiceCreateRequest'), 'id, status, created and updated are read-only', { ...service, status: 'ok' }, false],
  ['request', schema('ManagedServiceCreateRequest'), 'id, status, created and updated are read-only', { ...service, id: 654 }, false],
  ['response', schema('ManagedService'), 'status is disabled, pending, ok or problem', managedService(), true],
  ['response', schema('ManagedService'), 'status is disabled, pending, ok or problem', { ...managedService(), status: 'disabled' }, true],
  ['response', schema('ManagedService'), 'status is disabled, pending, ok or problem', { ...managedService(), status: 'down' }, false],
  ['response', schema('ManagedService'), 'every field is present', without(managedService(), 'region'), false],
];

function contact() {
  return { id: 567, name: 'John Doe', email: 'john.doe@example.org', group: 'on-call', phone: { primary: '555-0100', secondary: null }, updated: '2018-01-01T00:01:01' };
}

function credential() {
  return { id: 9991, label: 'prod-database', last_decrypted: '2018-01-04T17:12:43' };
}

function issue() {
  return { id: 823, created: '2018-01-03T06:15:00', entity: { id: 11223, label: 'ticket', type: 'ticket', url: '/v4/support/tickets/11223' }, services: [654] };
}

function computeSettings() {
  return { id: 123, label: 'web-1', group: 'web', ssh: { access: true, user: 'root', ip: '192.0.2.10', port: 22 } };
}

function managedService() {
  return {
    id: 654, ...service, body: null, consultation_group: 'on-call', credentials: [], notes: null, region: null,
    status: 'pending', created: '2018-01-02T12:00:00', updated: '2018-01-02T12:00:00',
  };
}

describeSchemaRules('Managed rules held by the schemas', cases);
