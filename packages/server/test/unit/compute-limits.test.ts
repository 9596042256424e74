// A Compute limit no instance type of this server reaches: volumes attached without persistence
// are one per GB of RAM, but never more than 64.
import { describe, expect, it } from 'vitest';
import { INSTANCE_TYPES, transientVolumeLimit } from '../../src/areas/compute/model.js';

describe('compute limits', () => {
  it('volumes without persistence: the RAM in GB, up to 64', () => {
    expect(INSTANCE_TYPES.map((t) => transientVolumeLimit(t))).toEqual(INSTANCE_TYPES.map((t) => t.memory / 1024));
    const big = { ...INSTANCE_TYPES[0]!, memory: 64 * 1024 };
    expect(transientVolumeLimit(big)).toBe(64);
    expect(transientVolumeLimit({ ...big, memory: 192 * 1024 })).toBe(64);
  });
});
