// The server follows whatever the bundle says, with no code change: a bundle edited here (as the
// spec's own changes would) changes validation, null handling and what responses carry.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBundle } from '@cloudapi/spec/bundle';
import { startTestServer, tempDir } from '../harness/harness.js';
import type { TestServer } from '../harness/harness.js';

let t: TestServer;

beforeAll(async () => {
  const document = loadBundle();
  const create = document.components.schemas.VolumeCreateRequest;
  // As issue "Spec v2" does: optional request fields accept null, meaning "not set".
  for (const name of ['tags', 'compute_id', 'size']) create.properties[name] = { anyOf: [create.properties[name], { type: 'null' }] };
  create.properties.label.maxLength = 5;
  // A response field turned write-only must stop being returned.
  document.components.schemas.Volume.properties.filesystem_path.writeOnly = true;
  // A rule only the create schema of a record holds: an update is checked against it as the
  // record would stand, with this bundle's validators (not the default bundle's).
  document.components.schemas.DomainRecordCreateRequest.properties.target = { maxLength: 12 };
  // Another base path: every route, and every URL an answer carries, moves below it.
  document.servers = [{ url: 'https://api.cloud.example/v9' }];
  const bundleFile = path.join(tempDir('bundle'), 'openapi.json');
  writeFileSync(bundleFile, JSON.stringify(document));
  t = await startTestServer({ name: 'bundle', bundleFile });
});
afterAll(() => t?.close());

describe('derived from the bundle', () => {
  it('request rules come from the bundle (a label limit changed there is enforced)', async () => {
    const answer = await t.as('full').post('/volumes', { label: 'sixsix', region: 'us-east' });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0]).toMatchObject({ field: 'label', reason: 'label must be at most 5 characters long' });
  });

  it('null for an optional field the bundle lets be null means "not set": the default applies', async () => {
    const answer = await t.as('full').post('/volumes', { label: 'nulls', region: 'us-east', tags: null, size: null, compute_id: null });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({ tags: [], size: 20, compute_id: null });
  });

  it('a field set to null counts as absent for the rules that depend on it', async () => {
    const answer = await t.as('full').post('/volumes', { label: 'where', compute_id: null });
    expect(answer.status).toBe(400);
    expect(answer.body.errors.map((e: any) => e.field)).toContain('region');
  });

  it('null stays refused where the bundle does not allow it', async () => {
    const answer = await t.as('full').post('/volumes', { label: 'x', region: null });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].field).toBe('region');
  });

  it("a record as it would stand after an update meets the create rules of the server's own bundle", async () => {
    const api = t.as('full');
    const domain = await api.post('/domains', { domain: 'bundle-rules.example', type: 'master', soa_email: 'admin@bundle-rules.example' });
    expect(domain.status, domain.text).toBe(200);
    const record = await api.post(`/domains/${domain.body.id}/records`, { type: 'TXT', name: 'note', target: 'short' });
    expect(record.status, record.text).toBe(200);
    const longer = await api.put(`/domains/${domain.body.id}/records/${record.body.id}`, { target: 'longer than twelve' });
    expect(longer.status, longer.text).toBe(400);
    expect(longer.body.errors[0]).toMatchObject({ field: 'target', reason: expect.stringContaining('as it would stand after this update') });
    const shorter = await api.put(`/domains/${domain.body.id}/records/${record.body.id}`, { target: 'still short' });
    expect(shorter.status, shorter.text).toBe(200);
  });

  it("the routes and the URLs answers carry lie below the bundle's base path", async () => {
    expect(new URL(t.baseUrl).pathname).toBe('/v9');
    const api = t.as('full');
    const service = await api.post('/managed/services', { address: 'https://example.org/base', label: 'base-path', service_type: 'url', timeout: 10 });
    expect(service.status, service.text).toBe(200);
    const volume = await api.post('/volumes', { label: 'based', region: 'us-east' });
    const ticket = await api.post('/support/tickets', { summary: 'Base path', description: 'Where do the URLs point?', volume_id: volume.body.id, managed_issue: true });
    expect(ticket.status, ticket.text).toBe(200);
    expect(ticket.body.entity.url).toBe(`/v9/volumes/${volume.body.id}`);
    const issues = await api.get('/managed/issues');
    expect(issues.body.data.find((issue: any) => issue.entity.id === ticket.body.id)?.entity.url).toBe(`/v9/support/tickets/${ticket.body.id}`);
  });

  it('a field the response schema marks write-only is never returned', async () => {
    const answer = await t.as('full').post('/volumes', { label: 'wo', region: 'us-east' });
    expect(answer.status).toBe(200);
    expect(answer.body.label).toBe('wo');
    expect(answer.body).not.toHaveProperty('filesystem_path');
  });
});
