// What the contract run (test/core/contract.test.ts) needs for Tags.
import { expect } from 'vitest';
import type { Api } from '../support/harness.js';

export const waivers = {
  createTag: 'its example tags compute instance 123 (Compute, part 3)',
};

/** The spec's examples address the tag `production`. */
export async function prepare(api: Api): Promise<void> {
  expect((await api.post('/tags', { label: 'production' })).status).toBe(200);
}
