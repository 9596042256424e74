// The sandbox world: what lies outside the account, which a sandbox server must stand in for,
// read once from data/sandbox.json: zones that other name servers serve (a domain import
// transfers them from the sandbox's own name server, nameserver.ts) and bucket labels that other
// accounts hold (a create of one is refused). test/unit/sandbox.test.ts checks the file against
// the spec's examples, as test/unit/catalogue.test.ts does the catalogue.
import type { Answer } from 'dns-packet';
import data from '../../data/sandbox.json' with { type: 'json' };

export interface SandboxWorld {
  /** Every record of each remote zone, its SOA first, by zone name (lower case). */
  zones: ReadonlyMap<string, readonly Answer[]>;
  /** The name servers of the world: the hosts its zones name in their apex NS records. */
  nameServers: ReadonlySet<string>;
  /** Bucket labels other accounts hold, as `<cluster>/<label>`. */
  otherAccountsBuckets: ReadonlySet<string>;
}

/** A host name as the world keys it: lower case, without the root's trailing period. */
export const hostKey = (name: string) => name.toLowerCase().replace(/\.$/, '');

export const bucketKey = (cluster: string, label: string) => `${cluster}/${label}`;

export function loadSandboxWorld(): SandboxWorld {
  const zones = new Map<string, readonly Answer[]>();
  const nameServers = new Set<string>();
  for (const { zone, records } of data.remoteZones) {
    const name = hostKey(zone);
    zones.set(name, records as Answer[]);
    for (const record of records) {
      if (record.type === 'NS' && hostKey(record.name) === name) nameServers.add(hostKey(record.data as string));
    }
  }
  const otherAccountsBuckets = new Set(data.otherAccountsBuckets.map((b) => bucketKey(b.cluster, b.label)));
  return { zones, nameServers, otherAccountsBuckets };
}
