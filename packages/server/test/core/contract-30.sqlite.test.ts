// The contract kit through the OpenAPI 3.0.3 edition (spec/dist/openapi.3.0.json, `--spec`)
// against this server: what a 3.0 tool reads of the contract holds too. Same run as
// contract.test.ts, only the description differs. SQLite only: the edition is a form of the
// document, which the store never sees; contract.test.ts keeps the contract on both engines.
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectContractKept, tags, wholeRun } from '../harness/area-contracts.js';
import { startTestServer } from '../harness/harness.js';
import type { TestServer } from '../harness/harness.js';

const spec30 = createRequire(import.meta.url).resolve('@cloudapi/spec/openapi.3.0.json');

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ name: 'contract-30' });
});
afterAll(() => t?.close());

describe('contract kit through the 3.0 edition', () => {
  it(`keeps the contract over ${tags.join(', ')} read as OpenAPI 3.0.3`, async () => {
    const { result, report } = await expectContractKept(t, { spec: spec30 });
    expect(result.coverage.selected, report).toBe(128);
    // The run read the 3.0 edition (the harness hands the kit the document it loaded).
    expect(wholeRun(t, spec30).document.openapi).toBe('3.0.3');
  });
});
