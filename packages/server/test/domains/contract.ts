// What the contract run (test/core/contract.test.ts) needs for Domains: nothing. The import
// example transfers `legacy.example` from `ns1.legacy.example`, a name server of the sandbox
// world: every server serves that zone from its own name server on 127.0.0.1 (src/sandbox/).
export const waivers = {};
