// What a server's handlers reach of the world outside the account (`ctx.sandbox`), and the sandbox
// of the browser engine, which has the same world and no network: a zone transfer from a name
// server of the world answers that zone's records as they are; any other name server cannot be
// reached. No Node built-in here; the HTTP server's sandbox (index.ts) serves the zones over DNS.
import type { Answer } from 'dns-packet';
import { bucketKey, hostKey, loadSandboxWorld } from './world.js';
import type { SandboxWorld } from './world.js';

/** Where zone transfers from `nameserver` go when it is a name server of the sandbox world. */
export type NameServerAddress = (nameserver: string) => { host: string; port: number } | undefined;

/** A zone transfer that failed: the name server could not be reached, refused, or broke off. */
export class TransferError extends Error {}

export interface Sandbox {
  /** Whether another account holds the bucket label `label` in `cluster`. */
  heldByOtherAccount(cluster: string, label: string): boolean;
  /** Every record of `zone` as `nameserver` transfers it (AXFR), the opening SOA first; a TransferError when it cannot. */
  transferZone(nameserver: string, zone: string): Promise<Answer[]>;
}

/** The world's bucket check, shared by both sandboxes. */
export const heldByOtherAccount = (world: SandboxWorld) => (cluster: string, label: string) => world.otherAccountsBuckets.has(bucketKey(cluster, label));

/** The browser engine's sandbox: the world's zones without a name server between. */
export function offlineSandbox(world: SandboxWorld = loadSandboxWorld()): Sandbox {
  return {
    heldByOtherAccount: heldByOtherAccount(world),
    async transferZone(nameserver, zone) {
      if (!world.nameServers.has(hostKey(nameserver))) {
        throw new TransferError(`${nameserver} could not be reached (this engine runs without a network: only the sandbox world's name servers answer)`);
      }
      const records = world.zones.get(zone.toLowerCase());
      // As the sandbox's name server answers an AXFR of a zone it does not serve (nameserver.ts).
      if (!records) throw new TransferError(`${nameserver} refused the zone transfer of ${zone} (REFUSED)`);
      return structuredClone([...records]);
    },
  };
}
