// Mutants for the blind spots runs against broken servers found (issue 27): each is a server with
// one defect that an earlier kit passed, or waited on, or harmed the account of.
import { describe, expect, it } from 'vitest';
import { formatReport, runContract, type ContractResult } from '../src/index.js';
import { type Fake, startFake } from './fixtures/fake.js';
import { shapesDocument } from './fixtures/shapes.js';
import { findings, runAgainst, withFake } from './support.js';

const full = [{ token: 'shapes-token', scopes: '*', grants: 'all' as const, restricted: false }];
const operation = (result: ContractResult, id: string) => result.operations.find((op) => op.operationId === id)!;
const posts = (fake: Fake, pattern: RegExp) => fake.seen.filter((s) => s.method === 'POST' && pattern.test(s.path));

/** A box the account holds that no run of the kit made. */
async function boxOfTheAccount(fake: Fake, label: string): Promise<{ id: number; label: string }> {
  const answer = await fetch(`${fake.baseUrl}/boxes`, { method: 'POST', headers: { authorization: `Bearer ${full[0]!.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ label }) });
  expect(answer.status).toBe(200);
  return answer.json() as Promise<{ id: number; label: string }>;
}

async function withShapes<T>(work: (fake: Fake) => Promise<T>): Promise<T> {
  const fake = await startFake({ document: shapesDocument, tokens: full });
  try { return await work(fake); } finally { await fake.stop(); }
}

describe('repeated pages', () => {
  it('a server that answers page 1 again for page 2 fails, though every list fits one page', async () => {
    await withFake({ defect: 'repeat-pages' }, async (fake) => {
      const result = await runAgainst(fake, { only: ['Volumes'] });
      const failed = findings(result);
      expect([...new Set(failed.map((f) => f.check))]).toEqual(['page consistent']);
      expect(failed.some((f) => f.request === 'walk of every page: page 2, past the last' && /\d+ items on page 2, but \d+ results at page_size 25 put 0 there/.test(f.reason))).toBe(true);
      expect(result.exitCode).toBe(1);
    });
  });

  it('a correct server answers the page past the last empty, and passes', async () => {
    await withFake({}, async (fake) => {
      const result = await runAgainst(fake, { only: ['listVolumes', 'createVolume'] });
      const past = result.operations.flatMap((op) => op.requests).filter((r) => /past the last$/.test(r.label));
      expect(past.length).toBeGreaterThan(0);
      expect(findings(result)).toEqual([]);
    });
  });
});

describe('a target that throttles or fails every valid request', () => {
  it.each([
    // 429 with Retry-After: 30 to every authenticated request (public ones still answer).
    { defect: 'throttle-everything' as const, answer: /429, Retry-After: 30/ },
    { defect: 'fail-everything' as const, answer: /: 503\)/ },
  ])('$defect ends the run with exit 2 within 30 s, saying why', async ({ defect, answer }) => {
    await withFake({ defect }, async (fake) => {
      const started = Date.now();
      const result = await runAgainst(fake, { only: ['Volumes', 'Regions'] });
      expect(Date.now() - started).toBeLessThan(30_000);
      expect(result.exitCode).toBe(2);
      expect(result.abort).toMatch(/^the target is unusable: 5 valid requests in a row were answered 429 or 503 \(last: GET|POST /);
      expect(result.abort).toMatch(answer);
      expect(result.abort).toMatch(/it throttles or fails every request$/);
      expect(formatReport(result)).toContain(result.abort!);
    });
  });
});

describe('account-wide destructive actions without --allow-destructive', () => {
  it('are not sent against a server that refuses every create, though the account looks empty', async () => {
    await withShapes(async (fake) => {
      fake.setDefect('refuse-creates');
      const result = await runContract({ baseUrl: fake.baseUrl, tokens: full, document: shapesDocument, only: ['Boxes'], examples: 0, settleMs: 0 });
      expect(posts(fake, /\/boxes\/cancel$/)).toEqual([]);
      expect(operation(result, 'cancelBoxes').unproven).toMatch(/^an account-wide destructive action, and no object of its area that this run created exists \(createBox made none that is left\)/);
    });
  });

  it('run while an object of the run\'s own is in the area (one is made to stand on after the deletes)', async () => {
    await withShapes(async (fake) => {
      const result = await runContract({ baseUrl: fake.baseUrl, tokens: full, document: shapesDocument, only: ['Boxes'], examples: 0 });
      expect(operation(result, 'cancelBoxes').successValidated).toBe(true);
      const cancel = fake.seen.findIndex((s) => s.method === 'POST' && /\/boxes\/cancel$/.test(s.path));
      const lastCreate = fake.seen.map((s, i) => (s.method === 'POST' && /\/boxes$/.test(s.path) && s.status === 200 ? i : -1)).reduce((a, b) => Math.max(a, b));
      const lastDelete = fake.seen.map((s, i) => (s.method === 'DELETE' && s.status === 200 ? i : -1)).reduce((a, b) => Math.max(a, b));
      // The box it stands on was made after the area's deletes, and before the action.
      expect(lastCreate).toBeLessThan(cancel);
      expect(fake.seen.slice(0, cancel).filter((s) => s.method === 'DELETE').length).toBeGreaterThan(0);
      expect(lastDelete).toBeGreaterThan(cancel); // clean-up removed it
      expect(findings(result)).toEqual([]);
    });
  });
});

describe('a create answered with an object the account held before', () => {
  it('is not taken as the run\'s own: never changed as one, nor deleted', async () => {
    await withShapes(async (fake) => {
      const theirs = await boxOfTheAccount(fake, 'my-box');
      fake.setDefect('answer-existing');
      const result = await runContract({ baseUrl: fake.baseUrl, tokens: full, document: shapesDocument, only: ['Boxes'], examples: 2, allowDestructive: false });
      const touched = fake.seen.filter((s) => s.method !== 'GET' && s.path.startsWith(new URL(`${fake.baseUrl}/boxes/${theirs.id}`).pathname));
      expect(touched).toEqual([]);
      expect(fake.stored()['/boxes/{boxId}']).toEqual([theirs]);
      const create = operation(result, 'createBox');
      expect(create.notes.some((n) => new RegExp(`createBox answered boxId=${theirs.id}, which listBoxes listed before the run's creates: not taken as the run's own`).test(n))).toBe(true);
      // It made a box of its own under the run's name, and proved what addresses it on that.
      expect(create.requests.some((r) => /with this run's names \(the example's answered an object the account held before\)/.test(r.label))).toBe(true);
      for (const id of ['getBox', 'deleteBox', 'purgeBox']) expect(operation(result, id).successValidated, id).toBe(true);
    });
  });
});

describe('a required header left out (Schemathesis missing_required_header)', () => {
  it('must be refused naming it: a server that ignores it fails, one that checks it passes', async () => {
    await withShapes(async (fake) => {
      const run = () => runContract({ baseUrl: fake.baseUrl, tokens: full, document: shapesDocument, only: ['getBox', 'createBox', 'deleteBox'], examples: 0 });
      const kept = await run();
      const variant = operation(kept, 'getBox').requests.find((r) => r.label === 'invalid: header X-Box-Keeper: left out [required]')!;
      expect(variant.checks.filter((c) => c.outcome !== 'pass')).toEqual([]);
      expect(findings(kept)).toEqual([]);
      fake.setDefect('ignore-required-header');
      const broken = await run();
      expect(findings(broken).map((f) => `${f.op} › ${f.request} › ${f.check}`)).toEqual(['getBox › invalid: header X-Box-Keeper: left out [required] › rejected']);
    });
  });
});
