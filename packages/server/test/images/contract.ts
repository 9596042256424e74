// What the contract run (test/core/contract.test.ts) needs for Images. The kit follows the links of
// uploadImage to the image it uploaded, so no image needs preparing.
export const waivers = {
  createImage: 'it captures a disk of a compute instance, and disks exist only with Compute (part 3)',
};
