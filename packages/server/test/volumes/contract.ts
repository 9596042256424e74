// What the contract run (test/core/contract.test.ts) needs for Volumes: nothing. The kit attaches
// to the instance and config it created through Compute's links, and detaches what it attached.
export const waivers = {};
