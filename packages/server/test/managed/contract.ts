// What the contract run (test/core/contract.test.ts) needs for Managed. Issues are recorded by
// tickets opened with `managed_issue: true` (no operation creates one directly): `prepare` opens
// one, and the kit finds its id in listManagedIssues (an id it did not create is looked up in the
// list, not taken from the examples).
import type { Api } from '../support/harness.js';

export const waivers = {};

export async function prepare(api: Api): Promise<void> {
  const answer = await api.post('/support/tickets', { summary: 'Monitoring alert', description: 'A monitored service stopped answering.', managed_issue: true });
  if (answer.status !== 200) throw new Error(`opening a managed-issue ticket answered ${answer.status}: ${answer.text}`);
}
