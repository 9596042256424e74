// `@cloudapi/contract/vitest`: the contract inside an implementation's own `vitest run`. One test
// per operation and kind of check, named after both, so a failure reads like any other test:
//
//   import { contractTests } from '@cloudapi/contract/vitest';
//   contractTests({ baseUrl: process.env.API_URL!, tokens: readTokensFile('tokens.json') });
//
// The run itself happens once, in a beforeAll; each test then reports its part of the result. A
// test whose checks could not run on this target is skipped with the reason (the mock keeps no
// state, no --tokens); an operation whose success could not be proven fails its first test.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadDocument, type Operation } from './model/operations.js';
import { type ContractOptions, type ContractResult, type RequestKind, runContract, selectOperations } from './run.js';
import { summaryLine } from './report/report.js';
import { bundleModel } from './run/plan.js';
import { resolveSettings } from './run/settings.js';

export { readTokensFile, makeTokens } from './model/tokens.js';

export interface ContractTestOptions extends ContractOptions {
  /** a name for the outer describe block */
  name?: string;
}

interface Group { title: string; kinds: RequestKind[]; applies: (op: Operation) => boolean; notRun: RegExp }

const GROUPS: Group[] = [
  { title: 'a valid request succeeds', kinds: ['positive'], applies: () => true, notRun: /^$/ },
  { title: 'invalid requests are refused naming the field', kinds: ['negative'], applies: (op) => Boolean(op.body) || op.parameters.some((p) => p.in !== 'header'), notRun: /error names the field/ },
  { title: 'bad credentials are refused', kinds: ['auth'], applies: (op) => op.security !== 'public', notRun: /unknown token/ },
  { title: 'tokens without the scope, grant or status it needs get 403', kinds: ['scope'], applies: (op) => op.security !== 'public', notRun: /scope/ },
  { title: 'what it changes reads back (stateful sequence)', kinds: ['sequence'], applies: (op) => op.links.length > 0 || op.method === 'delete' || op.method === 'put', notRun: /stateful/ },
  { title: 'every page of the list is consistent', kinds: ['pagination'], applies: (op) => op.list, notRun: /page/ },
  { title: 'a method the path lacks gets 405', kinds: ['method'], applies: () => true, notRun: /405/ },
  { title: 'generated requests keep the contract', kinds: ['generated'], applies: (op) => Boolean(op.body), notRun: /generated/ },
];

export function contractTests(options: ContractTestOptions): void {
  const document = options.document ?? loadDocument(options.spec);
  // The run's own model of the bundle (kept for the run in the beforeAll, validators included).
  const ops = selectOperations([...bundleModel(document).ops], options);
  let result: ContractResult | undefined;
  let failure: unknown;
  // The run's own deadline, and two minutes for its clean-up.
  const budget = resolveSettings(options).deadlineMs + 120_000;

  describe(options.name ?? `contract of ${document.info?.title ?? 'the API'} against ${options.baseUrl}`, () => {
    beforeAll(async () => {
      try { result = await runContract({ ...options, document }); } catch (error) { failure = error; }
    }, budget);

    it('the run could be made', () => {
      if (failure) throw failure;
      expect(result?.abort, result && summaryLine(result)).toBeUndefined();
    });

    for (const op of ops) {
      describe(`${op.id} (${op.method.toUpperCase()} ${op.path})`, () => {
        for (const group of GROUPS.filter((g) => g.applies(op))) {
          it(group.title, (context) => {
            if (!result) throw failure ?? new Error('the contract run did not finish');
            const mine = result.operations.find((o) => o.operationId === op.id)!;
            const records = mine.requests.filter((r) => group.kinds.includes(r.kind));
            const failed = records.flatMap((r) => r.checks.filter((c) => c.outcome === 'fail').map((c) => `${r.label} › ${c.name}: ${c.reason}${r.curl ? `\n  ${r.curl}` : ''}`));
            if (group.kinds.includes('positive') && !mine.successValidated && !failed.length) failed.push(`not proven: ${mine.unproven ?? 'no valid request was answered with a validated success'}`);
            expect(failed, failed.join('\n')).toEqual([]);
            if (!records.length) {
              const why = result.notRun.find((n) => group.notRun.test(n.check))?.reason ?? mine.unproven ?? mine.notes.find((n) => /not run|no 405/.test(n)) ?? 'nothing of this kind was sent for this operation';
              context.skip(why);
            }
          });
        }
      });
    }
  });
}
