// What the contract run (test/core/contract.test.ts) needs for Tags: nothing. The kit creates the
// volume its tag example names and follows createTag's links to the tag it made.
export const waivers = {};
