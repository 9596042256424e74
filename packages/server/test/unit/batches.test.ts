import { describe, expect, it } from 'vitest';
import { batches, MAX_STATEMENT_PARAMETERS } from '../../src/core/store/batches.js';

describe('batches', () => {
  it('cut a list so that no statement takes more than MAX_STATEMENT_PARAMETERS parameters', () => {
    const ids = Array.from({ length: 5000 }, (_, i) => i);
    const cut = batches(ids, 3);
    expect(cut.flat()).toEqual(ids);
    for (const batch of cut) expect(batch.length * 3).toBeLessThanOrEqual(MAX_STATEMENT_PARAMETERS);
    expect(cut.length).toBe(Math.ceil(5000 / Math.floor(MAX_STATEMENT_PARAMETERS / 3)));
    expect(batches([], 2)).toEqual([]);
    expect(batches(ids, 1, 100).map((b) => b.length)).toEqual(Array.from({ length: 50 }, () => 100));
  });
});
