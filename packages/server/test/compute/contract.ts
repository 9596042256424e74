// What the contract run (test/core/contract.test.ts) needs for Compute: nothing. The kit's first
// image deploy gets the disks the spec's examples name (disk ids start at 25674), so profile,
// rescue, clone and image capture examples address real disks.
export const waivers = {};
