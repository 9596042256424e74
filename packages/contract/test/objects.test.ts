// Objects written through the URLs an operation hands out (x-presigned-url, on createObjectUrl):
// the kit writes each object other operations name (the ACL examples' photos/cat.jpg) before they
// run, checks the URLs on an object of its own (upload, another Content-Type refused, read back,
// removed), removes what it wrote before deleting the bucket, and changes no object it did not
// write. A server whose PUT URL refuses the upload fails the check, and what needs the object
// is not proven, with the reason.
import { describe, expect, it } from 'vitest';
import { findings, keys, runAgainst, withFake } from './support.js';

const OPS = ['createBucket', 'getBucket', 'deleteBucket', 'getObjectAcl', 'updateObjectAcl', 'createObjectUrl'];
const URL_CHECKS = ['a pre-signed PUT URL accepts an upload', 'a pre-signed URL refuses another Content-Type', 'a pre-signed GET URL reads the upload back', 'a pre-signed DELETE URL removes the object', 'gone after the pre-signed DELETE'];

describe('objects written through pre-signed URLs', () => {
  it('writes the objects operations name before them, checks the URLs, and empties the bucket before its delete', async () => {
    await withFake({}, async (fake) => {
      const result = await runAgainst(fake, { only: OPS });
      expect(findings(result)).toEqual([]);
      expect(result.exitCode).toBe(0);
      expect(result.coverage).toMatchObject({ selected: OPS.length, successValidated: OPS.length });
      const checks = result.operations.find((op) => op.operationId === 'createObjectUrl')!.requests.flatMap((r) => r.checks);
      for (const name of URL_CHECKS) expect(checks.find((c) => c.name === name)?.outcome, name).toBe('pass');
      // photos/cat.jpg is written before the first request that names it, and removed before the bucket's delete.
      const catWritten = fake.urlUses.find((u) => u.method === 'PUT' && u.name === 'photos/cat.jpg' && u.status === 200)!;
      expect(catWritten.at).toBeLessThan(fake.seen.findIndex((s) => s.path.includes('/object-acl')));
      const catRemoved = fake.urlUses.find((u) => u.method === 'DELETE' && u.name === 'photos/cat.jpg' && u.status === 204)!;
      expect(catRemoved.at).toBeLessThan(fake.seen.findIndex((s) => s.method === 'DELETE' && /\/buckets\/[^/]+\/[^/]+$/.test(s.path) && s.status === 200));
      // Only what the run wrote was removed, and nothing is left.
      const names = new Set(fake.urlUses.filter((u) => u.method === 'PUT' && u.status === 200).map((u) => u.name));
      expect(fake.urlUses.filter((u) => u.method === 'DELETE').every((u) => names.has(u.name))).toBe(true);
      expect(Object.values(fake.objects()).flat()).toEqual([]);
      expect(result.cleanup.leftBehind).toEqual([]);
    });
  });

  it('fails a server whose pre-signed PUT URL refuses the upload, and proves nothing on the object it could not write', async () => {
    await withFake({ defect: 'refuse-url-uploads' }, async (fake) => {
      const result = await runAgainst(fake, { only: OPS });
      expect(keys(findings(result))).toEqual(['createObjectUrl › a pre-signed PUT URL accepts an upload']);
      expect(findings(result)[0]!.reason).toMatch(/answered 403 .*to an upload of \d+ bytes as image\/jpeg through the URL createObjectUrl made for it/);
      const unproven = Object.fromEntries(result.operations.filter((op) => op.unproven).map((op) => [op.operationId, op.unproven]));
      expect(Object.keys(unproven).sort()).toEqual(['getObjectAcl', 'updateObjectAcl']);
      for (const why of Object.values(unproven)) expect(why).toMatch(/addresses the object "photos\/cat\.jpg", which this run did not write: the PUT URL createObjectUrl made for it answered 403/);
      // Nothing was sent to the object the run could not write, and the empty bucket was deleted.
      expect(fake.seen.filter((s) => s.path.includes('/object-acl'))).toEqual([]);
      expect(result.operations.find((op) => op.operationId === 'deleteBucket')!.successValidated).toBe(true);
      expect(result.exitCode).toBe(1);
    });
  });
});
