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
