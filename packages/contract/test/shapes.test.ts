// The kit on shapes the spec's areas may bring (multipart bodies, text answers, string ids, a oneOf
// body, a required query parameter without an example, destructive actions on one object and on
// the whole account), against the fake implementation and against Prism serving the same small
// document.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startMock } from '@cloudapi/mock';
import { deriveMockDocument } from '@cloudapi/mock/derive';
import { runContract, type ContractResult } from '../src/index.js';
import { type Fake, startFake } from './fixtures/fake.js';
import { shapesDocument } from './fixtures/shapes.js';

const full = [{ token: 'shapes-token', scopes: '*', grants: 'all' as const, restricted: false }];
const failures = (result: ContractResult) => result.operations.flatMap((op) => op.requests.flatMap((r) => r.checks.filter((c) => c.outcome === 'fail').map((c) => `${op.operationId} › ${r.label} › ${c.name}: ${c.reason}`)));
const operation = (result: ContractResult, id: string) => result.operations.find((op) => op.operationId === id)!;
const requestsOf = (result: ContractResult, id: string) => operation(result, id).requests;
const notValidated = (result: ContractResult) => result.operations.filter((op) => !op.successValidated).map((op) => op.operationId).sort();
/** A box the account holds that no run of the kit made. */
async function boxOfTheAccount(fake: Fake, label: string): Promise<{ id: number; label: string }> {
  const answer = await fetch(`${fake.baseUrl}/boxes`, { method: 'POST', headers: { authorization: `Bearer ${full[0]!.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ label }) });
  expect(answer.status).toBe(200);
  return answer.json() as Promise<{ id: number; label: string }>;
}
const sent = (fake: Fake, pattern: RegExp) => fake.seen.filter((s) => s.method === 'POST' && pattern.test(s.path)).map((s) => s.path);
const dir = mkdtempSync(path.join(tmpdir(), 'contract-shapes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('other shapes of operations', () => {
  it('passes against the fake, with multipart and oneOf variants refused by field; destructive actions wait for --allow-destructive unless they destroy only what the run made', async () => {
    const fake = await startFake({ document: shapesDocument, tokens: full });
    try {
      const theirs = await boxOfTheAccount(fake, 'not-the-kits');
      const result = await runContract({ baseUrl: fake.baseUrl, tokens: full, document: shapesDocument, examples: 3 });
      expect(failures(result)).toEqual([]);
      // The account holds a box the run did not make: cancelling every box waits for the flag.
      expect(operation(result, 'cancelBoxes').unproven).toBe('the account holds 1 object this run did not create (listBoxes); --allow-destructive runs it');
      // Every page of the list is read before the action (the boxes its checks made are gone already).
      const read = requestsOf(result, 'cancelBoxes').filter((r) => r.kind === 'pagination').map((r) => r.label);
      expect(read).toEqual(read.map((_, i) => `before cancelBoxes, what listBoxes holds: page ${i + 1}`));
      expect(read.length).toBeGreaterThan(0);
      expect(sent(fake, /\/boxes\/cancel$/)).toEqual([]);
      expect(fake.stored()['/boxes/{boxId}']).toEqual([theirs]);
      // An action with no list of its area to show what it would destroy waits for the flag.
      expect(operation(result, 'cancelShapes').unproven).toBe('an account-wide destructive action, and no list of its area shows what it would destroy: --allow-destructive runs it');
      // The destructive action on one box runs without the flag, on the box the run made only.
      expect(operation(result, 'purgeBox').successValidated).toBe(true);
      expect(sent(fake, /\/purge$/).filter((p) => /\/boxes\/\d+\/purge$/.test(p)).length).toBeGreaterThan(0);
      expect(sent(fake, new RegExp(`/boxes/${theirs.id}/purge$`))).toEqual([]);
      expect(notValidated(result)).toEqual(['cancelBoxes', 'cancelShapes']);
      expect(result.safety!.reason).toMatch(/destructive ones only where they destroy nothing this run did not create \(--allow-destructive runs them all\)/);
      expect(result.exitCode).toBe(2);
      const upload = requestsOf(result, 'createTicketAttachment');
      expect(upload.filter((r) => r.kind === 'negative').map((r) => r.label)).toEqual(expect.arrayContaining([expect.stringMatching(/^invalid: file: left out/)]));
      const shapes = requestsOf(result, 'createShape');
      expect(shapes.filter((r) => r.kind === 'positive')).toHaveLength(2);
      expect(shapes.some((r) => /\[conditional\]/.test(r.label))).toBe(true);
      expect(shapes[0]!.url).toMatch(/\?dry_run=true$/);
      expect(requestsOf(result, 'getDomainZoneFile')[0]!.checks.find((c) => c.name === 'body matches schema')!.outcome).toBe('pass');

      // Once the account holds only what the run makes, cancelling every box runs without the flag.
      expect((await fetch(`${fake.baseUrl}/boxes/${theirs.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${full[0]!.token}` } })).status).toBe(200);
      const own = await runContract({ baseUrl: fake.baseUrl, tokens: full, document: shapesDocument, examples: 0 });
      expect(failures(own)).toEqual([]);
      expect(operation(own, 'cancelBoxes').successValidated).toBe(true);
      expect(sent(fake, /\/boxes\/cancel$/)).not.toEqual([]);
      expect(notValidated(own)).toEqual(['cancelShapes']);

      // --allow-destructive runs them all, whatever the account holds.
      await boxOfTheAccount(fake, 'not-the-kits-either');
      const allowed = await runContract({ baseUrl: fake.baseUrl, tokens: full, document: shapesDocument, examples: 0, allowDestructive: true });
      expect(failures(allowed)).toEqual([]);
      expect(allowed.coverage).toMatchObject({ selected: 11, successValidated: 11 });
      expect(allowed.safety!.reason).toMatch(/destructive ones too \(--allow-destructive\)/);
      expect(allowed.exitCode).toBe(0);
    } finally {
      await fake.stop();
    }
  });

  it('runs a destructive action on one object without --allow-destructive only on an object the run made', async () => {
    const fake = await startFake({ document: shapesDocument, tokens: full, defectOp: 'createBox' });
    try {
      const theirs = await boxOfTheAccount(fake, 'not-the-kits');
      fake.setDefect('refuse-creates');
      // settleMs: a refused create is retried as a state refusal; none shows the same.
      const result = await runContract({ baseUrl: fake.baseUrl, tokens: full, document: shapesDocument, only: ['Boxes'], examples: 0, settleMs: 0 });
      expect(operation(result, 'purgeBox').unproven).toMatch(/^needs a \{boxId\} this run created, and createBox \(did not succeed\)/);
      expect(operation(result, 'cancelBoxes').unproven).toMatch(/^the account holds 1 object this run did not create/);
      expect(sent(fake, /\/(purge|cancel)$/)).toEqual([]);
      expect(fake.stored()['/boxes/{boxId}']).toEqual([theirs]);
    } finally {
      await fake.stop();
    }
  });

  it('fails only the operation whose schema the kit cannot handle, and goes on', async () => {
    const broken = structuredClone(shapesDocument);
    broken.paths['/domains/{domainId}/zone-file'].get.parameters[0].schema.pattern = '(';
    const fake = await startFake({ document: shapesDocument, tokens: full });
    try {
      const result = await runContract({ baseUrl: fake.baseUrl, tokens: full, document: broken, examples: 0, allowDestructive: true });
      expect(failures(result)).toEqual([expect.stringMatching(/^getDomainZoneFile › kit error › kit error: the kit failed on this operation: .*pattern/s)]);
      expect(result.coverage.successValidated).toBe(10);
      expect(result.exitCode).toBe(1);
    } finally {
      await fake.stop();
    }
  });

  it('passes against Prism serving the same document', async () => {
    const file = path.join(dir, 'shapes.mock.json');
    writeFileSync(file, JSON.stringify(deriveMockDocument(shapesDocument)));
    const mock = await startMock({ port: 0, document: file });
    try {
      const result = await runContract({ baseUrl: `${mock.url}/v4`, document: shapesDocument, examples: 3 });
      expect(result.target).toBe('mock');
      expect(failures(result)).toEqual([]);
      expect(result.coverage.successValidated).toBe(11);
      expect(result.exitCode).toBe(0);
    } finally {
      await mock.stop();
    }
  });
});
