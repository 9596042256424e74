// The kit against implementations: a reasonably correct stateful one it must pass, every check
// included, and broken ones, each with one defect the kit must report by name. A kit that cannot
// fail is worthless, so every check here is shown failing on the defect it exists for.
import { describe, expect, it } from 'vitest';
import type { Defect } from './fixtures/fake.js';
import { AREAS, allOperations, checkNames, findings, keys, runAgainst, tokens, withFake } from './support.js';

const areaOps = allOperations.filter((op) => op.tags.some((t) => AREAS.includes(t)));

describe('a reasonably correct stateful implementation', () => {
  it('passes with every success validated, every check run, and everything it made cleaned up', async () => {
    await withFake({}, async (fake) => {
      const result = await runAgainst(fake, { examples: 3 });
      expect(findings(result)).toEqual([]);
      expect(result.exitCode).toBe(0);
      expect(result.coverage).toMatchObject({ selected: areaOps.length, successValidated: areaOps.length, unproven: 0 });
      const names = checkNames(result);
      for (const name of [
        'success', 'body matches schema', 'rejected', 'error names the field', '401 without a token', '401 for an unknown token', '401 for two Authorization headers',
        '401 for "Bearer" without a token', '401 for a Basic credential', 'a lower-case "bearer" scheme is accepted', 'no secret in the answer',
        '403 for a read-only token (volumes:read_only) on a write', '403 for a token without volumes scopes', '403 without the add_volumes grant',
        '403 for a restricted user changing tags', 'success for a token with just the scopes it needs',
        'read after create', 'listed after create', 'update read back', '404 after delete', 'unlisted after delete', 'page consistent',
        'each item once across the pages', 'generated requests keep the contract', '405 body is an ErrorResponse', '405 carries Allow with the path\'s methods',
        'X-Filter finds by equality', 'X-Filter finds by +contains', 'X-Filter order holds across pages', 'X-Filter refuses a field that is not filterable',
      ]) expect(names, name).toContain(name);
      expect([...names].some((n) => /^405 for PATCH/.test(n))).toBe(true);
      // Only what the run created was changed or deleted, and all of it is gone.
      expect(result.cleanup.leftBehind).toEqual([]);
      expect(fake.stored()).toMatchObject({ '/volumes/{volumeId}': [], '/tags/{label}': [] });
      const deleted = fake.seen.filter((s) => s.method === 'DELETE' && s.status === 200).map((s) => s.path.replace(/\?.*$/, ''));
      expect(deleted.length).toBeGreaterThan(0);
      expect(deleted.filter((p) => !fake.created.includes(p))).toEqual([]);
    });
  });
});

// Each defect with the checks it must fail and a pattern the reason must show.
const defects: { defect: Defect; defectOp?: string; only?: string[]; options?: object; checks: string[]; reason: RegExp }[] = [
  { defect: 'forbid-everything', only: ['Volumes'], checks: ['success', 'a lower-case "bearer" scheme is accepted', 'success for a token with just the scopes it needs'], reason: /answered 403 to a valid request/ },
  { defect: 'rate-limit-everything', only: ['Regions'], options: { maxRetries: 1 }, checks: ['success'], reason: /answered 429 after waiting out 1 429 answer/ },
  { defect: 'accept-any-token', only: ['Volumes'], checks: ['401 for an unknown token', 'success'], reason: /answered 200 to an unknown token; expected 401/ },
  { defect: 'delete-does-nothing', only: ['Volumes'], checks: ['404 after delete', 'unlisted after delete'], reason: /getVolume answered 200 .* after deleteVolume answered success: expected 404/ },
  { defect: 'ignore-updates', only: ['Volumes'], checks: ['update read back'], reason: /updateVolume sent label "[^"]+".* and answered 200, but the resource still reads "backup-data(-k[0-9a-f]{6}\w*)?"/ },
  { defect: 'hide-from-list', only: ['Volumes'], checks: ['listed after create'], reason: /volumeId=\d+ \(made by createVolume\) is missing from listVolumes/ },
  { defect: 'repeat-pages', only: ['Regions'], checks: ['each item once across the pages', 'page consistent'], reason: /25 item\(s\) came twice while walking the pages|25 items on page 2, but 30 results at page_size 25 put 5 there/ },
  { defect: 'ignore-scopes', only: ['Volumes'], checks: ['403 for a read-only token (volumes:read_only) on a write', '403 for a token without volumes scopes', '403 without the add_volumes grant', '403 for a read-only token (computes:read_only) on a write', '403 for a token without computes scopes', 'success'], reason: /to a token without (volumes:read_write|grant add_volumes); expected 403/ },
  { defect: 'leak-root-pass', only: ['Volumes'], checks: ['no secret in the answer'], reason: /createVolume answered 200 with write-only field root_pass at \/root_pass/ },
  { defect: 'endless-body', defectOp: 'getVolume', only: ['Volumes'], options: { maxBodyMb: 1 }, checks: ['body under the size cap', 'success'], reason: /went past the 1048576-byte cap \(--max-body-mb\)/ },
  { defect: 'hang', defectOp: 'getVolume', only: ['createVolume', 'getVolume'], options: { timeoutMs: 800, negative: false }, checks: ['answers', 'success', 'read after create'], reason: /no complete answer within 800 ms/ },
  { defect: 'garbage', defectOp: 'getVolume', only: ['createVolume', 'getVolume'], options: { negative: false }, checks: ['answers', 'success', 'read after create'], reason: /no answer: not an HTTP answer \(HPE_/ },
  { defect: 'slow', only: ['listRegions'], options: { maxResponseMs: 150, negative: false }, checks: ['response time'], reason: /answered in \d+ ms, over --max-response-ms 150/ },
  { defect: 'ignore-filter', only: ['Volumes'], checks: ['X-Filter finds by equality', 'X-Filter finds by +contains', 'X-Filter order holds across pages', 'X-Filter refuses a field that is not filterable'], reason: /X-Filter \{"label":"[^"]+"\}: \d+ item\(s\) do not match/ },
  { defect: 'ignore-order', only: ['Volumes'], checks: ['X-Filter order holds across pages'], reason: /X-Filter \{"\+order_by":"created","\+order":"desc"\}: .* comes before/ },
  { defect: 'filter-after-paginating', only: ['Volumes'], checks: ['X-Filter finds by equality', 'X-Filter finds by +contains', 'page consistent'], reason: /results says \d+, but the pages held \d+ matching items/ },
  { defect: 'no-405', only: ['Regions'], checks: ['405 for PATCH, which /regions lacks'], reason: /answered 404 to PATCH \/regions:/ },
  { defect: 'no-allow', only: ['Regions'], checks: ['405 carries Allow with the path\'s methods'], reason: /the 405 carries no Allow header; it must list GET/ },
  { defect: 'bad-header', only: ['listRegions'], options: { negative: false }, checks: ['declared headers match their schemas', 'X-RateLimit headers well-formed'], reason: /X-RateLimit-Limit: "plenty" .*must be integer/ },
];

describe('broken implementations: the kit names each defect', () => {
  it.each(defects)('$defect', async ({ defect, defectOp, only, options, checks, reason }) => {
    await withFake({ defect, defectOp }, async (fake) => {
      const result = await runAgainst(fake, { only, ...options });
      const failed = findings(result);
      expect([...new Set(failed.map((f) => f.check))].sort()).toEqual([...checks].sort());
      expect(failed.some((f) => reason.test(f.reason)), `${reason} in ${JSON.stringify(failed.slice(0, 3), null, 1)}`).toBe(true);
      expect(result.exitCode).toBe(1);
      // The curl lines of the failures name tokens by variable, never by value.
      const everything = JSON.stringify(result);
      for (const t of tokens) expect(everything).not.toContain(t.token);
    });
  });

  it('a generated request that crashes the target is shrunk to the smallest and printed as curl', async () => {
    await withFake({ defect: 'crash-on-long-label', defectOp: 'createVolume' }, async (fake) => {
      const result = await runAgainst(fake, { only: ['createVolume', 'deleteVolume'], examples: 60, seed: 7 });
      const [failure] = findings(result);
      expect(keys(findings(result))).toEqual(['createVolume › generated requests keep the contract']);
      expect(failure!.reason).toMatch(/no 5xx: answered 500/);
      // fast-check shrinks the label to the shortest that still crashes: 25 characters.
      expect(failure!.reason).toMatch(/the smallest failing input: \{[^}]*"label":"[^"]{25}"/);
      const record = result.operations[0]!.requests.find((r) => r.kind === 'generated')!;
      expect(record.label).toMatch(/shrunk after \d+ steps \(--seed 7\)/);
      expect(record.curl).toMatch(/^curl -X POST 'http:\/\/127\.0\.0\.1:\d+\/v4\/volumes' .*-H "authorization: Bearer \$TOKEN" .*--data-binary '\{.*"label":"[^"]{25}"/);
    });
  });
});

describe('a server that refuses every create', () => {
  it('deletes and changes nothing it did not create, and says which operations it could not prove', async () => {
    await withFake({ defect: 'refuse-creates' }, async (fake) => {
      // settleMs: a refused create is retried as a state refusal; half a second shows the same.
      const result = await runAgainst(fake, { only: ['Volumes'], settleMs: 500 });
      expect(fake.seen.filter((s) => !['GET', 'POST'].includes(s.method)).filter((s) => s.status < 400)).toEqual([]);
      expect(fake.seen.filter((s) => s.method === 'DELETE')).toEqual([]);
      expect(fake.seen.filter((s) => s.method === 'PUT')).toEqual([]);
      // The only POSTs are creates (a volume, and the instance and config a volume example attaches to).
      expect(fake.seen.filter((s) => s.method === 'POST' && !['/v4/volumes', '/v4/compute/instances'].includes(s.path))).toEqual([]);
      expect(keys(findings(result))).toContain('createVolume › success');
      const unproven = Object.fromEntries(result.operations.filter((op) => op.unproven).map((op) => [op.operationId, op.unproven]));
      for (const id of ['getVolume', 'updateVolume', 'deleteVolume', 'attachVolume', 'cloneVolume', 'resizeVolume', 'detachVolume']) {
        expect(unproven[id], id).toMatch(/needs a \{volumeId\} this run created, and createVolume \(did not succeed\)/);
      }
      expect(result.exitCode).toBe(1);
    });
  });
});
