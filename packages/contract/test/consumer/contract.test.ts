// A project's own test file: the contract inside its `vitest run`, one test per operation and
// check. Here twice, against the two implementations the kit's test started.
import { contractTests, readTokensFile } from '@cloudapi/contract/vitest';

for (const [name, baseUrl] of [['correct', process.env.CONTRACT_GOOD_URL!], ['broken', process.env.CONTRACT_BROKEN_URL!]]) {
  contractTests({ name, baseUrl, tokens: readTokensFile(process.env.CONTRACT_TOKENS!), only: ['Volumes'], examples: 0 });
}
