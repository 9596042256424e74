// What the contract run (test/core/contract.test.ts) needs for Managed: nothing. Issues are
// recorded by tickets opened with `managed_issue: true` (no operation creates one directly); the
// kit opens one from openSupportTicket's `managedIssue` example and finds its id in
// listManagedIssues (an id it did not create is looked up in the list).
export const waivers = {};
