// The contract kit (@cloudapi/contract) against this server over every area: no violation, and a
// validated success for every operation (the kit makes what each example needs through the
// spec's links).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBundle } from '@cloudapi/spec/bundle';
import { describeBundle } from '../../src/core/spec.js';
import { expectContractKept, tags } from '../harness/area-contracts.js';
import { startTestServer } from '../harness/harness.js';
import type { TestServer } from '../harness/harness.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ name: 'contract' });
});
afterAll(() => t?.close());

describe('contract kit', () => {
  it(`keeps the contract over ${tags.join(', ')}, with a validated success for every operation`, async () => {
    const { result, report } = await expectContractKept(t);
    // The X-Filter checks ran on the lists with filterable fields, and passed.
    const filterChecks = result.operations.flatMap((op: any) => op.requests.flatMap((r: any) => r.checks.filter((c: any) => c.name.startsWith('X-Filter')).map((c: any) => `${op.operationId} › ${c.name}: ${c.outcome}`)));
    expect(filterChecks.filter((c: string) => c.endsWith(': fail')), report).toEqual([]);
    console.log(`X-Filter checks of the kit on ${t.engine}: ${filterChecks.filter((c: string) => c.endsWith(': pass')).length} passed, skipped: ${filterChecks.filter((c: string) => c.endsWith(': skip')).join('; ') || 'none'}`);
    for (const name of ['finds by equality', 'finds by +contains', 'order holds across pages', 'refuses a field that is not filterable']) {
      expect(filterChecks, name).toContain(`listVolumes › X-Filter ${name}: pass`);
    }
    const spec = describeBundle(loadBundle());
    expect(result.coverage.selected).toBe(tags.flatMap((tag) => spec.operationsByTag.get(tag) ?? []).length);
  });
});
