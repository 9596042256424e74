// A project's own test file: the contract inside its `vitest run`, one test per operation and check.
import { contractTests, readTokensFile } from '@cloudapi/contract/vitest';

contractTests({
  baseUrl: process.env.CONTRACT_BASE_URL!,
  tokens: readTokensFile(process.env.CONTRACT_TOKENS!),
  only: process.env.CONTRACT_ONLY!.split(','),
  examples: 0,
});
