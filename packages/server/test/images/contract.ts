// What the contract run (test/core/contract.test.ts) needs for Images.
import { expect } from 'vitest';
import type { Api } from '../support/harness.js';

export const waivers = {
  createImage: 'its example captures disk 42 of a compute instance (Compute, part 3)',
};

/** The spec's examples address the private image `private/15`: upload until it exists. */
export async function prepare(api: Api): Promise<void> {
  for (let i = 0; i < 15; i++) expect((await api.post('/images/upload', { label: `prepared-${i}`, region: 'us-east' })).status).toBe(200);
  expect((await api.get(`/images/${encodeURIComponent('private/15')}`)).status).toBe(200);
}
