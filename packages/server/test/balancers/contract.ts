// What the contract run (test/core/contract.test.ts) needs for Balancers: nothing. The kit makes
// its balancer, config and node through the spec's links, and updates the node before it
// rebuilds the config (children before actions on their parent).
export const waivers = {};
