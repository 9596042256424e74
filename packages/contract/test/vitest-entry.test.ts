// @cloudapi/contract/vitest in a project's own `vitest run` (test/consumer/): one test per
// operation and kind of check, passing on a correct implementation and failing, by name, on a
// broken one; checks the target cannot have are skipped with the reason, never passed.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokens, withFake } from './support.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const vitestBin = path.join(path.dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
const dir = mkdtempSync(path.join(tmpdir(), 'contract-vitest-'));
const tokensFile = path.join(dir, 'tokens.json');
writeFileSync(tokensFile, JSON.stringify(tokens));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Assertion { fullName: string; status: string; failureMessages: string[] }
let tests: Assertion[] = [];

// One child `vitest run` for both implementations: a correct one and one whose deletes do nothing.
beforeAll(async () => {
  await withFake({}, (good) => withFake({ defect: 'delete-does-nothing' }, async (broken) => {
    const report = path.join(dir, 'report.json');
    await new Promise<void>((resolve) => {
      execFile(process.execPath, [vitestBin, 'run', '--root', path.join(here, 'consumer'), '--reporter=json', `--outputFile=${report}`], {
        env: { ...process.env, CONTRACT_GOOD_URL: good.baseUrl, CONTRACT_BROKEN_URL: broken.baseUrl, CONTRACT_TOKENS: tokensFile },
      }, () => resolve());
    });
    tests = JSON.parse(readFileSync(report, 'utf8')).testResults.flatMap((f: { assertionResults: Assertion[] }) => f.assertionResults);
  }));
});

const of = (name: string) => tests.filter((t) => t.fullName.startsWith(`${name} `));

describe('@cloudapi/contract/vitest', () => {
  it('passes on a correct implementation, one test per operation and check', () => {
    const good = of('correct');
    expect(good.map((t) => t.fullName)).toEqual(expect.arrayContaining([
      expect.stringMatching(/createVolume \(POST \/volumes\) a valid request succeeds$/),
      expect.stringMatching(/createVolume \(POST \/volumes\) tokens without the scope, grant or status it needs get 403$/),
      expect.stringMatching(/deleteVolume \(DELETE \/volumes\/\{volumeId\}\) what it changes reads back \(stateful sequence\)$/),
      expect.stringMatching(/the run could be made$/),
    ]));
    expect(good.filter((t) => t.status === 'failed').map((t) => `${t.fullName}: ${t.failureMessages[0]}`)).toEqual([]);
    expect(good.filter((t) => t.status === 'passed').length).toBeGreaterThan(40);
    // generated requests were turned off in the consumer: those tests are skipped, not passed
    const generated = good.filter((t) => /generated requests/.test(t.fullName));
    expect(generated.length).toBeGreaterThan(0);
    expect(generated.every((t) => t.status === 'skipped')).toBe(true);
  });

  it('fails the tests of the broken check, by operation and name', () => {
    const failed = of('broken').filter((t) => t.status === 'failed');
    expect(failed.map((t) => t.fullName)).toEqual([expect.stringMatching(/deleteVolume \(DELETE \/volumes\/\{volumeId\}\) what it changes reads back \(stateful sequence\)$/)]);
    expect(failed[0]!.failureMessages[0]).toMatch(/404 after delete: getVolume answered 200/);
  });
});
