// Object Storage: one test per rule of the requirements (and of the spec's decisions).
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startTestServer, testClock, TOKENS } from '../harness/harness.js';
import type { TestServer } from '../harness/harness.js';
import { CLUSTER, createBucket, ensureCurl, objectUrl, putObject } from './support.js';

let t: TestServer;
const clock = testClock(0);
beforeAll(async () => {
  t = await startTestServer({ name: 'objstore', clock });
});
afterAll(() => t?.close());

const full = () => t.as('full');
const other = () => t.as('noGrants'); // another user of the account, with every scope
const readOnly = () => t.as('readOnly');
/** How answers name a user: `user-` and the start of its token's SHA-256. */
const userName = (token: string) => `user-${createHash('sha256').update(token).digest('hex').slice(0, 12)}`;
const bucketPath = (label: string, cluster = CLUSTER) => `/object-storage/buckets/${cluster}/${label}`;
const list = (label: string, query: Record<string, string | number> = {}) => full().get(`${bucketPath(label)}/object-list`, { query });
const PEM_CERT = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----\n';
const PEM_KEY = '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIKeyMaterialForTests\n-----END PRIVATE KEY-----\n';

describe('object storage', () => {
  it('clusters are listed and viewed without authorization; an unknown cluster is 404', async () => {
    const clusters = await t.as(null).get('/object-storage/clusters');
    expect(clusters.status).toBe(200);
    expect(clusters.body.data.map((c: any) => c.id)).toContain(CLUSTER);
    expect((await t.as(null).get(`/object-storage/clusters/${CLUSTER}`)).body).toMatchObject({ id: CLUSTER, status: 'available' });
    expect((await t.as(null).get('/object-storage/clusters/mars-1')).status).toBe(404);
  });

  it('a bucket label is unique within a cluster: a label another owner (account) uses there is a 400 naming label', async () => {
    // data/sandbox.json: other accounts hold `backups` in both clusters, `media-assets` in ap-south-1.
    for (const [label, cluster] of [['backups', CLUSTER], ['backups', 'ap-south-1'], ['media-assets', 'ap-south-1']]) {
      const taken = await full().post('/object-storage/buckets', { label, cluster });
      expect(taken.status, `${cluster}/${label}`).toBe(400);
      expect(taken.body.errors).toEqual([{ field: 'label', reason: `The bucket label ${label} is already used in cluster ${cluster} by another owner` }]);
      expect((await full().get(bucketPath(label, cluster))).status).toBe(404);
    }
    // The same label in another cluster is free.
    expect((await createBucket(full(), 'media-assets')).label).toBe('media-assets');
    const listed = (await full().get('/object-storage/buckets')).body.data.map((b: any) => `${b.cluster}/${b.label}`);
    expect(listed).toContain(`${CLUSTER}/media-assets`);
    expect(listed).not.toContain('ap-south-1/media-assets');
  });

  it('buckets belong to the account: another user of it creating the same label gets that bucket (200), and sees and changes it', async () => {
    const mine = await createBucket(full(), 'shared-label');
    const again = await other().post('/object-storage/buckets', { label: 'shared-label', cluster: CLUSTER });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(mine);
    expect((await other().get(bucketPath('shared-label'))).body).toEqual(mine);
    expect((await other().put(`${bucketPath('shared-label')}/access`, { acl: 'public-read' })).status).toBe(200);
    await putObject(other(), 'shared-label', 'by-other.txt');
    expect((await full().get(bucketPath('shared-label'))).body.objects).toBe(1);
    // Scopes still apply: a read-only token reads the bucket, and cannot change it.
    expect((await readOnly().get(bucketPath('shared-label'))).status).toBe(200);
    expect((await readOnly().put(`${bucketPath('shared-label')}/access`, { acl: 'private' })).status).toBe(403);
  });

  it('POST of an existing own bucket answers 200 with that bucket', async () => {
    const first = await createBucket(full(), 'mine-again');
    await putObject(full(), 'mine-again', 'kept.txt');
    const again = await full().post('/object-storage/buckets', { label: 'mine-again', cluster: CLUSTER, acl: 'public-read' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...first, objects: 1, size: 'data of kept.txt'.length });
    const buckets = await full().get(`/object-storage/buckets/${CLUSTER}`);
    expect(buckets.body.data.filter((b: any) => b.label === 'mine-again')).toHaveLength(1);
  });

  it('a bucket is created in an existing, available cluster, with a label that can be its hostname', async () => {
    const bucket = await createBucket(full(), 'host-name.ok');
    expect(bucket).toMatchObject({ label: 'host-name.ok', cluster: CLUSTER, hostname: 'host-name.ok.us-east-1.objstorage.example', objects: 0, size: 0 });
    const unknown = await full().post('/object-storage/buckets', { label: 'x-bucket', cluster: 'mars-1' });
    expect(unknown.body.errors[0]).toMatchObject({ field: 'cluster', reason: expect.stringMatching(/does not exist/) });
    const unavailable = await full().post('/object-storage/buckets', { label: 'x-bucket', cluster: 'eu-central-1' });
    expect(unavailable.body.errors[0]).toMatchObject({ field: 'cluster', reason: expect.stringMatching(/unavailable/) });
    const badLabel = await full().post('/object-storage/buckets', { label: 'Not_A_Host', cluster: CLUSTER });
    expect(badLabel.status).toBe(400);
    expect(badLabel.body.errors[0].field).toBe('label');
  });

  it('the bucket lists show the account\'s buckets to each of its users, all of them or those of one cluster', async () => {
    await createBucket(other(), 'made-by-other');
    await createBucket(full(), 'made-by-full', 'ap-south-1');
    for (const user of [full(), other()]) {
      const all = (await user.get('/object-storage/buckets')).body.data.map((b: any) => `${b.cluster}/${b.label}`);
      expect(all).toEqual(expect.arrayContaining([`${CLUSTER}/made-by-other`, 'ap-south-1/made-by-full']));
      // Other accounts' buckets are not the account's.
      expect(all).not.toContain(`${CLUSTER}/backups`);
      expect((await user.get('/object-storage/buckets/ap-south-1')).body.data.map((b: any) => b.label)).toEqual(['made-by-full']);
    }
    expect((await full().get(bucketPath('made-by-other'))).status).toBe(200);
    expect((await full().get('/object-storage/buckets/mars-1')).status).toBe(404);
  });

  it('a non-empty bucket cannot be deleted', async () => {
    await createBucket(full(), 'not-empty');
    await putObject(full(), 'not-empty', 'photos/cat.jpg');
    const refused = await full().delete(bucketPath('not-empty'));
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].reason).toMatch(/not empty/);
    expect((await full().get(bucketPath('not-empty'))).body.objects).toBe(1);
    // Emptied through a DELETE URL, it can be.
    const url = await objectUrl(full(), 'not-empty', { name: 'photos/cat.jpg', method: 'DELETE' });
    expect((await fetch(url, { method: 'DELETE' })).status).toBe(204);
    expect((await full().delete(bucketPath('not-empty'))).status).toBe(200);
    expect((await full().get(bucketPath('not-empty'))).status).toBe(404);
  });

  it('bucket access: POST and PUT do the same, custom accepted; only on the account\'s buckets', async () => {
    await createBucket(full(), 'access-bucket');
    for (const method of ['post', 'put'] as const) {
      const answer = await full()[method](`${bucketPath('access-bucket')}/access`, { acl: 'custom', cors_enabled: false });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({});
    }
    const wrongAcl = await full().put(`${bucketPath('access-bucket')}/access`, { acl: 'everyone' });
    expect(wrongAcl.body.errors[0].field).toBe('acl');
    expect((await full().put(`${bucketPath('no-such-bucket')}/access`, { acl: 'private' })).status).toBe(404);
    expect((await full().put(`${bucketPath('backups')}/access`, { acl: 'private' })).status).toBe(404);
  });

  it('an object\'s ACL is viewed with its XML and changed (custom accepted); a missing object is 404', async () => {
    await createBucket(full(), 'acl-bucket');
    await putObject(full(), 'acl-bucket', 'doc.txt');
    const acl = `${bucketPath('acl-bucket')}/object-acl`;
    const before = await full().get(acl, { query: { name: 'doc.txt' } });
    expect(before.body.acl).toBe('private');
    expect(before.body.acl_xml).toMatch(/<AccessControlPolicy[\s\S]*FULL_CONTROL/);
    expect(before.body.acl_xml).not.toMatch(/AllUsers/);
    expect((await full().put(acl, { name: 'doc.txt', acl: 'public-read' })).body).toEqual({});
    const after = await full().get(acl, { query: { name: 'doc.txt' } });
    expect(after.body.acl).toBe('public-read');
    expect(after.body.acl_xml).toMatch(/AllUsers<\/URI><\/Grantee><Permission>READ/);
    expect((await full().put(acl, { name: 'doc.txt', acl: 'custom' })).status).toBe(200);
    expect((await full().get(acl, { query: { name: 'doc.txt' } })).body.acl).toBe('custom');
    expect((await full().get(acl, { query: { name: 'nope.txt' } })).status).toBe(404);
    expect((await full().put(acl, { name: 'nope.txt', acl: 'private' })).status).toBe(404);
  });

  it('a pre-signed PUT URL made by the server, used with curl --upload-file, creates the object that object-list shows', async () => {
    const curl = ensureCurl();
    await createBucket(full(), 'curl-bucket');
    const dir = mkdtempSync(path.join(tmpdir(), 'objstore-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'dog.jpg');
    writeFileSync(file, Buffer.from('not really a jpeg, but bytes all the same'));
    const url = await objectUrl(full(), 'curl-bucket', { name: 'photos/dog 1.jpg', method: 'PUT', content_type: 'image/jpeg', expires_in: 600 });
    expect(url).toMatch(new RegExp(`^${t.url}/object-storage-urls/`));
    // The server runs in this process: curl runs beside it, not blocking it.
    const run = await promisify(execFile)(curl, ['-sS', '-o', '/dev/null', '-w', '%{http_code}', '--upload-file', file, '-H', 'Content-Type: image/jpeg', url], { encoding: 'utf8', timeout: 60_000 });
    expect(run.stdout).toBe('200');
    const listed = await list('curl-bucket');
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ is_truncated: false, next_marker: null });
    expect(listed.body.data).toEqual([{ name: 'photos/dog 1.jpg', etag: expect.stringMatching(/^[0-9a-f]{32}$/), last_modified: expect.stringMatching(/Z$/), owner: userName(TOKENS.full.token), size: 41 }]);
  });

  it('an object\'s owner is the user who made the pre-signed URL that wrote it', async () => {
    await createBucket(full(), 'owners-bucket');
    await putObject(full(), 'owners-bucket', 'a.txt');
    await putObject(other(), 'owners-bucket', 'b.txt');
    expect((await list('owners-bucket')).body.data.map((o: any) => [o.name, o.owner])).toEqual([['a.txt', userName(TOKENS.full.token)], ['b.txt', userName(TOKENS.noGrants.token)]]);
    const acl = await full().get(`${bucketPath('owners-bucket')}/object-acl`, { query: { name: 'b.txt' } });
    expect(acl.body.acl_xml).toContain(`<Owner><ID>${userName(TOKENS.noGrants.token)}</ID>`);
  });

  it('a pre-signed GET URL reads the object, with its content type', async () => {
    await createBucket(full(), 'read-bucket');
    await putObject(full(), 'read-bucket', 'notes/a.json', '{"a":1}', 'application/json');
    const response = await fetch(await objectUrl(full(), 'read-bucket', { name: 'notes/a.json' }));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.text()).toBe('{"a":1}');
    // Any name, dot segments and URL characters included, is addressed exactly.
    for (const name of ['notes/../a.json', 'a/./b', 'q?x=1#frag', '100%/ü €', 'a//b']) {
      await putObject(full(), 'read-bucket', name, `is ${name}`);
      expect(await (await fetch(await objectUrl(full(), 'read-bucket', { name }))).text()).toBe(`is ${name}`);
    }
    const missing = await fetch(await objectUrl(full(), 'read-bucket', { name: 'notes/none.json' }));
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as any).errors[0].reason).toMatch(/does not exist/);
  });

  it('a downloaded object is served as bytes, never as a page of the server: nosniff always, active types as sandboxed attachments', async () => {
    await createBucket(full(), 'html-bucket');
    const page = '<!doctype html><script>fetch("/v4/account")</script>';
    const kinds: [string, string, boolean][] = [
      ['page.html', 'text/html', true],
      ['image.svg', 'image/svg+xml', true],
      ['feed.xml', 'application/xml; charset=utf-8', true],
      ['script.js', 'text/javascript', true],
      ['notes/plain.txt', 'text/plain; charset=utf-8', false],
      ['photo.png', 'image/png', false],
      ['data.json', 'application/json', false],
    ];
    for (const [name, type, attachment] of kinds) {
      await putObject(full(), 'html-bucket', name, page, type);
      const response = await fetch(await objectUrl(full(), 'html-bucket', { name }));
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(page);
      expect({ name, type: response.headers.get('content-type'), nosniff: response.headers.get('x-content-type-options'), csp: response.headers.get('content-security-policy') })
        .toEqual({ name, type, nosniff: 'nosniff', csp: expect.stringMatching(/^sandbox;/) });
      expect({ name, disposition: response.headers.get('content-disposition') })
        .toEqual({ name, disposition: attachment ? `attachment; filename*=UTF-8''${encodeURIComponent(name.split('/').pop()!)}` : null });
    }
  });

  it('an object above 16 MiB is refused with 413 and not stored', async () => {
    await createBucket(full(), 'large-bucket');
    const url = await objectUrl(full(), 'large-bucket', { name: 'huge.bin', method: 'PUT', content_type: 'application/octet-stream' });
    const response = await fetch(url, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: Buffer.alloc(16 * 1024 * 1024 + 1) });
    expect(response.status).toBe(413);
    expect(((await response.json()) as any).errors[0].reason).toMatch(/at most 16777216 bytes/);
    expect((await list('large-bucket')).body.data).toEqual([]);
  });

  it('content_type is required for PUT and POST URLs, and the request made with the URL must send it identical', async () => {
    await createBucket(full(), 'type-bucket');
    for (const method of ['PUT', 'POST']) {
      const answer = await full().post(`${bucketPath('type-bucket')}/object-url`, { name: 'x.txt', method });
      expect(answer.status).toBe(400);
      expect(answer.body.errors.map((e: any) => e.field)).toContain('content_type');
    }
    const url = await objectUrl(full(), 'type-bucket', { name: 'x.txt', method: 'PUT', content_type: 'text/plain' });
    for (const headers of [{ 'content-type': 'text/html' }, { 'content-type': 'text/plain; charset=utf-8' }, {}] as Record<string, string>[]) {
      const response = await fetch(url, { method: 'PUT', headers, body: 'hello' });
      expect(response.status).toBe(403);
      expect(((await response.json()) as any).errors[0].reason).toMatch(/Content-Type text\/plain/);
    }
    expect((await list('type-bucket')).body.data).toEqual([]);
    expect((await fetch(url, { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: 'hello' })).status).toBe(200);
  });

  it('a pre-signed URL needs the object name and the method', async () => {
    await createBucket(full(), 'method-bucket');
    const answer = await full().post(`${bucketPath('method-bucket')}/object-url`, { name: 'x' });
    expect(answer.status).toBe(400);
    expect(answer.body.errors.map((e: any) => e.field)).toEqual(['method']);
    const nameless = await full().post(`${bucketPath('method-bucket')}/object-url`, { method: 'GET' });
    expect(nameless.body.errors.map((e: any) => e.field)).toEqual(['name']);
    expect((await full().post(`${bucketPath('method-bucket')}/object-url`, { name: '..', method: 'GET' })).body.errors[0].field).toBe('name');
    expect((await full().post(`${bucketPath('method-bucket')}/object-url`, { name: 'x', method: 'HEAD' })).body.errors.map((e: any) => e.field)).toContain('method');
  });

  it('expires_in is 360..68400 seconds, 3600 by default', async () => {
    await createBucket(full(), 'expiry-bucket');
    for (const expires of [359, 68401]) {
      const answer = await full().post(`${bucketPath('expiry-bucket')}/object-url`, { name: 'x', method: 'GET', expires_in: expires });
      expect(answer.status).toBe(400);
      expect(answer.body.errors[0].field).toBe('expires_in');
    }
    const url = new URL(await objectUrl(full(), 'expiry-bucket', { name: 'x' }));
    expect(Number(url.searchParams.get('expires')) - Math.floor(clock.now() / 1000)).toBe(3600);
  });

  it('an expired URL gets 403 ErrorResponse (the server\'s clock decides)', async () => {
    await createBucket(full(), 'expired-bucket');
    const url = await objectUrl(full(), 'expired-bucket', { name: 'late.txt', method: 'PUT', content_type: 'text/plain', expires_in: 360 });
    clock.advance(361_000);
    const response = await fetch(url, { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: 'too late' });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ errors: [{ reason: expect.stringMatching(/expired/) }] });
    expect((await list('expired-bucket')).body.data).toEqual([]);
  });

  it('a tampered URL gets 403 ErrorResponse: the signature covers the object, bucket, expiry, content type, maker and method', async () => {
    await createBucket(full(), 'signed-bucket');
    await putObject(full(), 'signed-bucket', 'secret.txt');
    const url = await objectUrl(full(), 'signed-bucket', { name: 'upload.txt', method: 'PUT', content_type: 'text/plain' });
    const tampered = [
      url.replace('upload.txt', 'secret.txt'),
      url.replace(/expires=(\d+)/, (_m, s) => `expires=${Number(s) + 100000}`),
      url.replace('content_type=text%2Fplain', 'content_type=text%2Fhtml'),
      url.replace(/user=([0-9a-f])/, (_m, c) => `user=${c === '0' ? '1' : '0'}`),
      url.replace(/&user=[0-9a-f]+/, ''),
      url.replace(/signature=([0-9a-f])/, (_m, c) => `signature=${c === '0' ? '1' : '0'}`),
      url.replace(/&signature=[0-9a-f]+/, ''),
    ];
    for (const changed of tampered) {
      const headers = { 'content-type': changed.includes('text%2Fhtml') ? 'text/html' : 'text/plain' };
      const response = await fetch(changed, { method: 'PUT', headers, body: 'overwritten' });
      expect(response.status, changed).toBe(403);
      expect(((await response.json()) as any).errors[0].reason).toBeTruthy();
    }
    // Another method than the one signed.
    expect((await fetch(url, { method: 'DELETE' })).status).toBe(403);
    const read = await fetch(await objectUrl(full(), 'signed-bucket', { name: 'secret.txt' }));
    expect(await read.text()).toBe('data of secret.txt');
  });

  it('object-list walks names in order with marker, next_marker and is_truncated', async () => {
    await createBucket(full(), 'many-bucket');
    const names = Array.from({ length: 30 }, (_, i) => `file-${String(i).padStart(2, '0')}`);
    for (const name of names) await putObject(full(), 'many-bucket', name, 'x');
    const first = await list('many-bucket', { page_size: 25 });
    expect(first.body.data.map((o: any) => o.name)).toEqual(names.slice(0, 25));
    expect(first.body).toMatchObject({ is_truncated: true, next_marker: 'file-24' });
    const second = await list('many-bucket', { page_size: 25, marker: first.body.next_marker });
    expect(second.body.data.map((o: any) => o.name)).toEqual(names.slice(25));
    expect(second.body).toMatchObject({ is_truncated: false, next_marker: null });
    expect((await list('many-bucket', { page_size: 24 })).status).toBe(400);
  });

  it('object-list takes a prefix and groups names by a delimiter', async () => {
    await createBucket(full(), 'tree-bucket');
    for (const name of ['a.txt', 'photos/2019/x.jpg', 'photos/cat.jpg', 'photos/dog.jpg', 'photosx', 'videos/v.mp4', 'z.txt']) await putObject(full(), 'tree-bucket', name, 'x');
    const names = async (query: Record<string, string | number>) => (await list('tree-bucket', query)).body.data.map((o: any) => (o.etag ? o.name : `[${o.name}]`));
    expect(await names({ delimiter: '/' })).toEqual(['a.txt', '[photos/]', 'photosx', '[videos/]', 'z.txt']);
    expect(await names({ prefix: 'photos/' })).toEqual(['photos/2019/x.jpg', 'photos/cat.jpg', 'photos/dog.jpg']);
    expect(await names({ prefix: 'photos/', delimiter: '/' })).toEqual(['[photos/2019/]', 'photos/cat.jpg', 'photos/dog.jpg']);
    expect(await names({ prefix: 'photos/', marker: 'photos/cat.jpg' })).toEqual(['photos/dog.jpg']);
    // A group as the marker (how next_marker names it) resumes after the whole group.
    expect(await names({ delimiter: '/', marker: 'photos/' })).toEqual(['photosx', '[videos/]', 'z.txt']);
  });

  it('bucket TLS: the certificate is uploaded once, viewed as a boolean, and its private key is never returned', async () => {
    await createBucket(full(), 'tls-bucket');
    const ssl = `${bucketPath('tls-bucket')}/ssl`;
    expect((await full().get(ssl)).body).toEqual({ ssl: false });
    const uploaded = await full().post(ssl, { certificate: PEM_CERT, private_key: PEM_KEY });
    expect(uploaded.status).toBe(200);
    expect(uploaded.body).toEqual({ ssl: true });
    const view = await full().get(ssl);
    expect(view.body).toEqual({ ssl: true });
    for (const answer of [uploaded, view, await full().get(bucketPath('tls-bucket'))]) expect(answer.text).not.toMatch(/PRIVATE KEY|KeyMaterial/);
    const again = await full().post(ssl, { certificate: PEM_CERT, private_key: PEM_KEY });
    expect(again.status).toBe(400);
    expect(again.body.errors[0].reason).toMatch(/already has a certificate/);
    expect((await full().delete(ssl)).status).toBe(200);
    expect((await full().get(ssl)).body).toEqual({ ssl: false });
    expect((await full().delete(ssl)).status).toBe(404);
  });

  it('an access key\'s secret_key is in the create response only', async () => {
    const created = await full().post('/object-storage/keys', { label: 'backup' });
    expect(created.status).toBe(200);
    expect(created.body.secret_key).toMatch(/^[A-Za-z0-9]{40}$/);
    expect(created.body.access_key).toMatch(/^[A-Z0-9]{20}$/);
    const id = created.body.id;
    const answers = [await full().get(`/object-storage/keys/${id}`), await full().put(`/object-storage/keys/${id}`, { label: 'renamed' }), await full().get('/object-storage/keys')];
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.text).not.toContain(created.body.secret_key);
    }
    expect(answers[0]!.body).toEqual({ ...created.body, secret_key: '[REDACTED]' });
    expect(answers[1]!.body.label).toBe('renamed');
  });

  it('bucket_access: omitted gives an unlimited key, an array a key limited to the listed buckets, empty a limited key without access', async () => {
    await createBucket(full(), 'key-bucket');
    const unlimited = await full().post('/object-storage/keys', { label: 'all' });
    expect(unlimited.body).toMatchObject({ limited: false, bucket_access: null });
    const none = await full().post('/object-storage/keys', { label: 'none', bucket_access: [] });
    expect(none.body).toMatchObject({ limited: true, bucket_access: [] });
    const access = [{ bucket_name: 'key-bucket', cluster: CLUSTER, permissions: 'read_only' }];
    const limited = await full().post('/object-storage/keys', { label: 'one', bucket_access: access });
    expect(limited.body).toMatchObject({ limited: true, bucket_access: access });
    expect((await full().get(`/object-storage/keys/${limited.body.id}`)).body.bucket_access).toEqual(access);
    const unknown = await full().post('/object-storage/keys', { bucket_access: [access[0], { bucket_name: 'no-such-bucket', cluster: CLUSTER, permissions: 'read_write' }] });
    expect(unknown.body.errors[0]).toMatchObject({ field: 'bucket_access.1.bucket_name' });
    const twice = await full().post('/object-storage/keys', { bucket_access: [access[0], access[0]] });
    expect(twice.body.errors[0]).toMatchObject({ field: 'bucket_access.1.bucket_name', reason: expect.stringMatching(/twice/) });
    const badCluster = await full().post('/object-storage/keys', { bucket_access: [{ ...access[0], cluster: 'mars-1' }] });
    expect(badCluster.body.errors[0]).toMatchObject({ field: 'bucket_access.0.cluster' });
  });

  it('deleting an access key revokes the keypair', async () => {
    const created = await full().post('/object-storage/keys', { label: 'short-lived' });
    expect((await full().delete(`/object-storage/keys/${created.body.id}`)).status).toBe(200);
    expect((await full().get(`/object-storage/keys/${created.body.id}`)).status).toBe(404);
    expect((await full().get('/object-storage/keys')).body.data.map((k: any) => k.id)).not.toContain(created.body.id);
  });

  it('transfer counts the outbound bytes read through pre-signed URLs this month', async () => {
    const before = (await full().get('/object-storage/transfer')).body.used;
    await createBucket(full(), 'transfer-bucket');
    await putObject(full(), 'transfer-bucket', 'big.bin', Buffer.alloc(5000, 1), 'application/octet-stream');
    const url = await objectUrl(full(), 'transfer-bucket', { name: 'big.bin' });
    for (let i = 0; i < 2; i++) expect((await (await fetch(url)).arrayBuffer()).byteLength).toBe(5000);
    expect((await full().get('/object-storage/transfer')).body).toEqual({ used: before + 10000 });
  });

  it('objects and pre-signed URLs survive a restart: the data and the signing secret are in the database', async () => {
    await createBucket(full(), 'kept-bucket');
    await putObject(full(), 'kept-bucket', 'kept.txt', 'still here');
    const url = await objectUrl(full(), 'kept-bucket', { name: 'kept.txt' });
    await t.restart();
    const response = await fetch(url.replace(/^http:\/\/[^/]+/, t.url));
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('still here');
  });

  // Last: it removes everything.
  it('cancel removes all the account\'s buckets and their contents irretrievably, whoever made them', async () => {
    await createBucket(full(), 'doomed-bucket');
    await putObject(full(), 'doomed-bucket', 'x.txt');
    const url = await objectUrl(full(), 'doomed-bucket', { name: 'x.txt' });
    expect((await full().post('/object-storage/cancel')).body).toEqual({});
    expect((await full().get('/object-storage/buckets')).body).toMatchObject({ data: [], results: 0 });
    expect((await other().get('/object-storage/buckets')).body.results).toBe(0);
    expect((await fetch(url)).status).toBe(404);
    // The label is free again, and the new bucket is empty.
    expect((await createBucket(other(), 'doomed-bucket')).objects).toBe(0);
  });
});
