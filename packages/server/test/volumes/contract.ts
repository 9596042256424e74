// What the contract run (test/core/contract.test.ts) needs for Volumes.
export const waivers = {
  attachVolume: 'its examples attach to compute instance 123 (Compute, part 3)',
  detachVolume: 'only an attached volume can be detached, and attaching needs an instance (Compute, part 3)',
};
