// Managed: one test per rule of the requirements (and of the server's decisions) for contacts,
// credentials, the SSH key, issues, services and compute settings. Compute settings run against
// a stand-in Compute directory with two instances (test/managed/fake-computes.ts).
import { createPublicKey } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '../harness/harness.js';
import type { TestServer } from '../harness/harness.js';
import { ok, startServerWithInstances } from './fake-computes.js';

let t: TestServer;
const clock = testClock(0);

beforeAll(async () => {
  t = await startServerWithInstances('managed', clock);
});
afterAll(() => t?.close());

const full = () => t.as('full');
const fieldsOf = (body: any) => body.errors.map((e: any) => e.field);

describe('managed contacts', () => {
  it('a contact is created with its name, email, group and phones, and read back', async () => {
    const contact = await ok(full().post('/managed/contacts', { name: 'John Doe', email: 'john@example.org', group: 'on-call', phone: { primary: '555-0100' } }));
    expect(contact).toMatchObject({ name: 'John Doe', email: 'john@example.org', group: 'on-call', phone: { primary: '555-0100', secondary: null } });
    expect(await ok(full().get(`/managed/contacts/${contact.id}`))).toEqual(contact);
    const list = await ok(full().get('/managed/contacts'));
    expect(list.data).toContainEqual(contact);
  });

  it('a new contact needs a name and an email address', async () => {
    const noName = await full().post('/managed/contacts', { email: 'x@example.org' });
    expect(noName.status).toBe(400);
    expect(fieldsOf(noName.body)).toEqual(['name']);
    const noEmail = await full().post('/managed/contacts', { name: 'Xavier' });
    expect(noEmail.status).toBe(400);
    expect(fieldsOf(noEmail.body)).toEqual(['email']);
  });

  it('a contact update changes only the fields sent; null removes the group and the secondary phone', async () => {
    const contact = await ok(full().post('/managed/contacts', { name: 'Jane Roe', email: 'jane@example.org', group: 'dba', phone: { primary: '555-0142', secondary: '555-0143' } }));
    const renamed = await ok(full().put(`/managed/contacts/${contact.id}`, { phone: { secondary: '555-0199' } }));
    expect(renamed).toMatchObject({ name: 'Jane Roe', group: 'dba', phone: { primary: '555-0142', secondary: '555-0199' } });
    const cleared = await ok(full().put(`/managed/contacts/${contact.id}`, { group: null, phone: { secondary: null } }));
    expect(cleared).toMatchObject({ name: 'Jane Roe', email: 'jane@example.org', group: null, phone: { primary: '555-0142', secondary: null } });
  });

  it('a deleted contact is gone', async () => {
    const contact = await ok(full().post('/managed/contacts', { name: 'Gone Soon', email: 'gone@example.org' }));
    expect(await ok(full().delete(`/managed/contacts/${contact.id}`))).toEqual({});
    expect((await full().get(`/managed/contacts/${contact.id}`)).status).toBe(404);
    expect((await full().delete(`/managed/contacts/${contact.id}`)).status).toBe(404);
  });
});

describe('managed credentials', () => {
  it('username and password are write-only: no answer ever carries them', async () => {
    const created = await full().post('/managed/credentials', { label: 'web-admin', username: 'admin', password: 's3cr3t-Pa55' });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ id: expect.any(Number), label: 'web-admin', last_decrypted: null });
    const answers = [created, await full().get(`/managed/credentials/${created.body.id}`), await full().get('/managed/credentials'),
      await full().put(`/managed/credentials/${created.body.id}`, { label: 'web-admin-2' })];
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.text).not.toMatch(/s3cr3t-Pa55|"admin"|username|password/);
    }
  });

  it('username and password are stored hashed, never in clear', async () => {
    const created = await ok(full().post('/managed/credentials', { label: 'db-root', username: 'root-user-xyz', password: 'clear-text-pw-xyz' }));
    const row = await t.server.store.db.selectFrom('managed_credentials').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    const stored = JSON.stringify(row);
    expect(stored).not.toMatch(/root-user-xyz|clear-text-pw-xyz/);
    expect(row.password_hash).toMatch(/^scrypt\$/);
    expect(row.username_hash).toMatch(/^scrypt\$/);
  });

  it('POST update changes the username and password', async () => {
    const created = await ok(full().post('/managed/credentials', { label: 'rotated', username: 'old-user', password: 'old-password' }));
    const before = await t.server.store.db.selectFrom('managed_credentials').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(await ok(full().post(`/managed/credentials/${created.id}/update`, { username: 'new-user', password: 'new-password' }))).toEqual({});
    const after = await t.server.store.db.selectFrom('managed_credentials').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(after.password_hash).not.toBe(before.password_hash);
    expect(after.username_hash).not.toBe(before.username_hash);
    expect(JSON.stringify(after)).not.toMatch(/new-user|new-password/);
    const missing = await full().post('/managed/credentials/999999/update', { password: 'x' });
    expect(missing.status).toBe(404);
  });

  it('a credential label is unique, on create and on rename', async () => {
    const first = await ok(full().post('/managed/credentials', { label: 'unique-one', password: 'p' }));
    await ok(full().post('/managed/credentials', { label: 'unique-two', password: 'p' }));
    const again = await full().post('/managed/credentials', { label: 'unique-one', password: 'q' });
    expect(again.status).toBe(400);
    expect(again.body.errors[0]).toMatchObject({ field: 'label', reason: expect.stringMatching(/already exists/) });
    const rename = await full().put(`/managed/credentials/${first.id}`, { label: 'unique-two' });
    expect(rename.status).toBe(400);
    expect(fieldsOf(rename.body)).toEqual(['label']);
    expect((await ok(full().put(`/managed/credentials/${first.id}`, { label: 'unique-one' }))).label).toBe('unique-one');
  });

  it('a deleted credential is gone, and support staff lose access to it: it leaves every service', async () => {
    const credential = await ok(full().post('/managed/credentials', { label: 'short-lived', password: 'p' }));
    const service = await ok(full().post('/managed/services', { address: 'https://example.org/health', label: 'uses-cred', service_type: 'url', timeout: 30, credentials: [credential.id] }));
    expect(service.credentials).toEqual([credential.id]);
    expect(await ok(full().delete(`/managed/credentials/${credential.id}`))).toEqual({});
    expect((await full().get(`/managed/credentials/${credential.id}`)).status).toBe(404);
    const services = await ok(full().get('/managed/services'));
    expect(services.data.find((s: any) => s.id === service.id).credentials).toEqual([]);
  });
});

describe('managed SSH key', () => {
  it('the account has one SSH public key, an Ed25519 key in authorized_keys form, the same on every read and after a restart', async () => {
    const first = await ok(full().get('/managed/credentials/sshkey'));
    const [type, blob] = first.ssh_key.split(' ');
    expect(type).toBe('ssh-ed25519');
    const bytes = Buffer.from(blob, 'base64');
    expect(bytes.readUInt32BE(0)).toBe(11);
    expect(bytes.subarray(4, 15).toString()).toBe('ssh-ed25519');
    expect(bytes.readUInt32BE(15)).toBe(32);
    const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: bytes.subarray(19).toString('base64url') }, format: 'jwk' });
    expect(key.asymmetricKeyType).toBe('ed25519');
    expect(await ok(t.as('readOnly').get('/managed/credentials/sshkey'))).toEqual(first);
    await t.restart();
    expect(await ok(full().get('/managed/credentials/sshkey'))).toEqual(first);
  });
});

describe('managed issues', () => {
  it('a ticket opened about a managed service records an issue whose entity is that ticket', async () => {
    const service = await ok(full().post('/managed/services', { address: 'https://example.org/shop', label: 'shop', service_type: 'url', timeout: 10 }));
    const ticket = await ok(full().post('/support/tickets', { summary: 'Shop is down', description: 'The shop answers 502.', managed_issue: true }));
    const issues = await ok(full().get('/managed/issues'));
    const issue = issues.data.find((i: any) => i.entity.id === ticket.id);
    expect(issue).toMatchObject({ entity: { id: ticket.id, label: 'Shop is down', type: 'ticket', url: `/v4/support/tickets/${ticket.id}` } });
    expect(issue.services).toContain(service.id);
    expect(await ok(full().get(`/managed/issues/${issue.id}`))).toEqual(issue);
    await ok(full().post('/support/tickets', { summary: 'Not managed', description: 'A plain question.' }));
    expect((await ok(full().get('/managed/issues'))).results).toBe(issues.results);
  });

  it('an issue that does not exist is a 404', async () => {
    expect((await full().get('/managed/issues/424242')).status).toBe(404);
  });
});

describe('managed services', () => {
  it('monitoring starts when a service is created: pending, then ok', async () => {
    clock.transitionMs = 60_000;
    let service: any;
    try {
      service = await ok(full().post('/managed/services', { address: 'https://example.org/api', label: 'api', service_type: 'url', timeout: 5, body: 'pong', notes: 'n' }));
    } finally {
      clock.transitionMs = 0;
    }
    expect(service).toMatchObject({ status: 'pending', address: 'https://example.org/api', body: 'pong', notes: 'n', region: null, consultation_group: '', credentials: [] });
    const listed = () => ok(full().get('/managed/services')).then((l) => l.data.find((s: any) => s.id === service.id));
    expect((await listed()).status).toBe('pending');
    clock.advance(60_001);
    expect((await listed()).status).toBe('ok');
  });

  it('region is required when address is a private IP, and may not be set otherwise', async () => {
    const missing = await full().post('/managed/services', { address: 'tcp://10.0.0.5:5432', label: 'db-primary', service_type: 'tcp', timeout: 10 });
    expect(missing.status).toBe(400);
    expect(fieldsOf(missing.body)).toContain('region');
    const forbidden = await full().post('/managed/services', { address: 'https://example.org/', label: 'public', service_type: 'url', timeout: 10, region: 'us-east' });
    expect(forbidden.status).toBe(400);
    expect(fieldsOf(forbidden.body)).toContain('region');
    const privateOne = await ok(full().post('/managed/services', { address: 'tcp://10.0.0.5:5432', label: 'db-primary', service_type: 'tcp', timeout: 10, region: 'us-east' }));
    expect(privateOne.region).toBe('us-east');
  });

  it('the region of a service must exist', async () => {
    const answer = await full().post('/managed/services', { address: 'tcp://192.168.1.5:22', label: 'ssh', service_type: 'tcp', timeout: 10, region: 'mars-north' });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0]).toMatchObject({ field: 'region', reason: expect.stringMatching(/mars-north/) });
  });

  it('every credential a service names must exist', async () => {
    const credential = await ok(full().post('/managed/credentials', { label: 'svc-cred', password: 'p' }));
    const answer = await full().post('/managed/services', { address: 'https://example.org/', label: 'svc', service_type: 'url', timeout: 10, credentials: [credential.id, 987654] });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0]).toMatchObject({ field: 'credentials.1', reason: expect.stringMatching(/987654/) });
  });
});

describe('managed compute settings', () => {
  it('compute settings list one entry per instance, with defaults until changed', async () => {
    const list = await ok(full().get('/managed/compute-settings'));
    expect(list).toMatchObject({ results: 2, pages: 1, page: 1 });
    expect(list.data.map((s: any) => s.id)).toEqual([123, 124]);
    expect(list.data[1]).toEqual({ id: 124, label: 'db-1', group: 'database', ssh: { access: true, user: 'root', ip: '192.0.2.11', port: 22 } });
  });

  it('compute settings change only the ssh fields sent, keyed by instance', async () => {
    const updated = await ok(full().put('/managed/compute-settings/123', { ssh: { user: 'support', port: 2222 } }));
    expect(updated).toEqual({ id: 123, label: 'web-1', group: 'web', ssh: { access: true, user: 'support', ip: '192.0.2.10', port: 2222 } });
    const again = await ok(full().put('/managed/compute-settings/123', { ssh: { access: false } }));
    expect(again.ssh).toEqual({ access: false, user: 'support', ip: '192.0.2.10', port: 2222 });
    expect(await ok(full().get('/managed/compute-settings/123'))).toEqual(again);
    expect((await ok(full().get('/managed/compute-settings/124'))).ssh.user).toBe('root');
  });

  it('compute settings of an instance that does not exist are a 404', async () => {
    expect((await full().get('/managed/compute-settings/999')).status).toBe(404);
    expect((await full().put('/managed/compute-settings/999', { ssh: { port: 22 } })).status).toBe(404);
  });
});
