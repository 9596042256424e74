// What the contract run (test/core/contract.test.ts) needs for Balancers.
//
// The kit runs actions in order of path depth, so `rebuildBalancerConfig` (two path parameters)
// runs before the node updates and deletes (three). A rebuild replaces the config's whole set of
// nodes, as the requirements say (omitted nodes are deleted), and the kit cannot know the new
// nodes' ids, so the node it created earlier is gone when it then updates and deletes it (404).
// Those two success checks are waived; test/balancers/balancers.test.ts covers both operations.
const rebuiltFirst = 'the kit rebuilds the config before it updates or deletes the node it created, and a rebuild deletes the nodes it does not list: the node is gone (404)';
export const waivers = {
  updateBalancerNode: rebuiltFirst,
  deleteBalancerNode: rebuiltFirst,
};
