// What the contract run (test/core/contract.test.ts) needs for Domains. The import example
// transfers `legacy.example` from `ns1.legacy.example`: a name server serving that zone runs on
// 127.0.0.1 for the run, and the server's zone transfers go there (AXFR_RESOLVE, AXFR_PORT, read
// at each import).
import type { Api } from '../support/harness.js';
import { startNameServer } from './nameserver.js';

export async function prepare(_api: Api): Promise<void> {
  const nameServer = await startNameServer(['legacy.example']);
  nameServer.unref();
  process.env.AXFR_PORT = String(nameServer.port);
  process.env.AXFR_RESOLVE = 'ns1.legacy.example=127.0.0.1';
}

// The spec's examples tell one story in which the tag `production` is on a domain, a volume, an
// instance and a balancer. The kit runs the operations in the bundle's order, so createDomain's
// example (a domain tagged `production`) creates that tag before createTag's example tries to
// create it: a 400 by the Tags rule (a label that exists), and the kit then has no tag of its own
// to follow to deleteTag and listTaggedObjects. test/tags checks those three operations.
const tagCreatedByDomainExample = 'createDomain\'s example has already created the tag `production` that createTag\'s example creates (examples of two areas conflict under the Tags rule)';
export const waivers = {
  createTag: tagCreatedByDomainExample,
  deleteTag: `follows createTag's link: ${tagCreatedByDomainExample}`,
  listTaggedObjects: `follows createTag's link: ${tagCreatedByDomainExample}`,
};
