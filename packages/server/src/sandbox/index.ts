// The sandbox a server runs beside its API: the world outside the account (world.ts) and the name
// server that serves that world's zones on 127.0.0.1 (nameserver.ts). It starts with the server
// and stops with it; handlers reach it as `ctx.sandbox`.
import { transferTarget, transferZone } from '../areas/domains/axfr.js';
import { startZoneServer } from './nameserver.js';
import { heldByOtherAccount } from './sandbox.js';
import type { NameServerAddress, Sandbox } from './sandbox.js';
import { hostKey, loadSandboxWorld } from './world.js';
import type { SandboxWorld } from './world.js';

export type { Sandbox } from './sandbox.js';

export interface RunningSandbox extends Sandbox {
  nameServerAddress: NameServerAddress;
  world: SandboxWorld;
  /** The port of the sandbox's name server on 127.0.0.1. */
  dnsPort: number;
  close(): Promise<void>;
}

/** Starts the sandbox's name server on `dnsPort` (0, the default, picks a free one). */
export async function startSandbox(options: { dnsPort?: number } = {}): Promise<RunningSandbox> {
  const world = loadSandboxWorld();
  const dns = await startZoneServer(world.zones, { port: options.dnsPort ?? 0 });
  const nameServerAddress = (nameserver: string) => (world.nameServers.has(hostKey(nameserver)) ? { host: dns.host, port: dns.port } : undefined);
  return {
    world,
    dnsPort: dns.port,
    nameServerAddress,
    heldByOtherAccount: heldByOtherAccount(world),
    transferZone: (nameserver, zone) => transferZone(nameserver, transferTarget(nameserver, { nameServerAddress }), zone),
    close: () => dns.close(),
  };
}
