// What the contract run (test/core/contract.test.ts) needs for Images: nothing. The kit follows
// the links of uploadImage to the image it uploaded, and captures a disk of the first instance it
// deploys (found in that instance's profiles, in place of the example's disk 25674).
export const waivers = {};
