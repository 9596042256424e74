// The sandbox a server runs beside its API: the world outside the account (world.ts) and the name
// server that serves that world's zones on 127.0.0.1 (nameserver.ts). It starts with the server
// and stops with it; handlers reach it as `ctx.sandbox`.
import { startZoneServer } from './nameserver.js';
import { bucketKey, hostKey, loadSandboxWorld } from './world.js';
import type { SandboxWorld } from './world.js';

export interface Sandbox {
  /** Where zone transfers from `nameserver` go when it is a name server of the sandbox world. */
  nameServerAddress(nameserver: string): { host: string; port: number } | undefined;
  /** Whether another account holds the bucket label `label` in `cluster`. */
  heldByOtherAccount(cluster: string, label: string): boolean;
}

export interface RunningSandbox extends Sandbox {
  world: SandboxWorld;
  /** The port of the sandbox's name server on 127.0.0.1. */
  dnsPort: number;
  close(): Promise<void>;
}

/** Starts the sandbox's name server on `dnsPort` (0, the default, picks a free one). */
export async function startSandbox(options: { dnsPort?: number } = {}): Promise<RunningSandbox> {
  const world = loadSandboxWorld();
  const dns = await startZoneServer(world.zones, { port: options.dnsPort ?? 0 });
  return {
    world,
    dnsPort: dns.port,
    nameServerAddress: (nameserver) => (world.nameServers.has(hostKey(nameserver)) ? { host: dns.host, port: dns.port } : undefined),
    heldByOtherAccount: (cluster, label) => world.otherAccountsBuckets.has(bucketKey(cluster, label)),
    close: () => dns.close(),
  };
}
