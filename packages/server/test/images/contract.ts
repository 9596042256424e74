// What the contract run (test/core/contract.test.ts) needs for Images: nothing. The kit follows
// the links of uploadImage to the image it uploaded, and captures disk 25674, the first disk of
// the first instance it deploys (Compute's disk ids start there, as in the spec's examples).
export const waivers = {};
