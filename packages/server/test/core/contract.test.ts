// The contract kit (@cloudapi/contract) against this server over the areas built here: no
// violation, and a validated success for every operation that does not need a compute instance.
// The spec's examples name objects a fresh server does not have (image `private/15`, tag
// `production`); the test account is prepared with them through the API first, as the kit's
// README asks of any stateful target.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatReport, runContract } from '@cloudapi/contract';
import { describeBundle, loadBundle } from '../../src/core/spec.js';
import { startTestServer, TOKENS } from '../support/harness.js';
import type { TestServer } from '../support/harness.js';

/** Operations whose example requests name a compute instance or disk (Compute, part 3). */
const NEED_AN_INSTANCE = ['createImage', 'createTag', 'attachVolume', 'detachVolume'];
const AREAS = ['Regions', 'Images', 'Tags', 'Volumes'];

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ name: 'contract' });
  for (let i = 0; i < 15; i++) expect((await t.as('full').post('/images/upload', { label: `prepared-${i}`, region: 'us-east' })).status).toBe(200);
  expect((await t.as('full').get(`/images/${encodeURIComponent('private/15')}`)).status).toBe(200);
  expect((await t.as('full').post('/tags', { label: 'production' })).status).toBe(200);
});
afterAll(() => t?.close());

describe('contract kit', () => {
  it(`keeps the contract over ${AREAS.join(', ')}, with a validated success for every operation that needs no instance`, async () => {
    const result = await runContract({ baseUrl: t.baseUrl, token: TOKENS.full.token, only: AREAS, timeoutMs: 60_000 });
    const report = formatReport(result, { verbose: true });
    expect(result.target, report).toBe('implementation');
    expect(result.ok, report).toBe(true);
    expect(result.tally.fail, report).toBe(0);
    const notValidated = result.operations.filter((op: any) => !op.successValidated).map((op: any) => op.operationId).sort();
    expect(notValidated, report).toEqual([...NEED_AN_INSTANCE].sort());
    const spec = describeBundle(loadBundle());
    expect(result.coverage.selected).toBe(AREAS.flatMap((tag) => spec.operationsByTag.get(tag) ?? []).length);
  });
});
