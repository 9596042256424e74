// What the contract run (test/core/contract.test.ts) needs for Managed. Issues are recorded by
// tickets opened with `managed_issue: true` (no operation creates one directly), and the spec's
// examples read issue 823: `prepare` opens that many such tickets.
import type { Api } from '../support/harness.js';

export const waivers = {
  getManagedComputeSettings: 'its examples address compute instance 123; instances exist only with the Compute area (part 3)',
  updateManagedComputeSettings: 'its examples address compute instance 123; instances exist only with the Compute area (part 3)',
};

const EXAMPLE_ISSUE_ID = 823;
const AT_ONCE = 16;

export async function prepare(api: Api): Promise<void> {
  const { results } = (await api.get('/managed/issues')).body as { results: number };
  for (let next = results + 1; next <= EXAMPLE_ISSUE_ID; next += AT_ONCE) {
    const batch = Array.from({ length: Math.min(AT_ONCE, EXAMPLE_ISSUE_ID - next + 1) }, () =>
      api.post('/support/tickets', { summary: 'Monitoring alert', description: 'A monitored service stopped answering.', managed_issue: true }));
    for (const answer of await Promise.all(batch)) if (answer.status !== 200) throw new Error(`opening a managed-issue ticket answered ${answer.status}: ${answer.text}`);
  }
  const issue = await api.get(`/managed/issues/${EXAMPLE_ISSUE_ID}`);
  if (issue.status !== 200) throw new Error(`issue ${EXAMPLE_ISSUE_ID} was not made: ${issue.text}`);
}
