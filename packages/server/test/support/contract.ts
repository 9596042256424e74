// What the contract run (test/core/contract.test.ts) needs for Support: nothing. The kit opens
// the VLAN example's ticket (the other example names compute instance 123, which exists only
// with the Compute area) and follows openSupportTicket's links to it.
export const waivers = {};
