// What the Compute area decides without the store: instance types, the root password's strength
// check, the addresses an instance gets, which states are steady, device slots.

/** Instance types (the service's plans): resources in MB, vCPUs, transfer quota in GB. */
export interface InstanceType {
  id: string;
  disk: number;
  memory: number;
  vcpus: number;
  transfer: number;
}

export const INSTANCE_TYPES: readonly InstanceType[] = [
  { id: 'g6-nanode-1', disk: 25600, memory: 1024, vcpus: 1, transfer: 1000 },
  { id: 'g6-standard-1', disk: 51200, memory: 2048, vcpus: 1, transfer: 2000 },
  { id: 'g6-standard-2', disk: 81920, memory: 4096, vcpus: 2, transfer: 4000 },
  { id: 'g6-standard-4', disk: 163840, memory: 8192, vcpus: 4, transfer: 5000 },
  { id: 'g6-standard-6', disk: 327680, memory: 16384, vcpus: 6, transfer: 8000 },
];

export const instanceType = (id: string) => INSTANCE_TYPES.find((t) => t.id === id);

/** The region capability an instance needs, and the one a VLAN interface needs. */
export const COMPUTE_CAPABILITY = 'Compute Instances';
export const VLAN_CAPABILITY = 'Vlans';

export const PASSWORD_MESSAGE = 'Password does not meet strength requirement';

/**
 * The strength check of a root password (the requirements leave it internal): at least three of
 * the four kinds of character (lower case, upper case, digits, others), and not one character
 * repeated for more than half of it.
 */
export function strongEnough(password: string): boolean {
  const kinds = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((re) => re.test(password)).length;
  const counts = new Map<string, number>();
  for (const ch of password) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  return kinds >= 3 && Math.max(...counts.values()) * 2 <= password.length;
}

/**
 * Addresses follow from the instance id (documentation ranges), so they are unique while the
 * instance exists and released with it.
 */
export function addresses(id: number, privateIp: boolean): { ipv4: string[]; ipv6: string } {
  const pub = `203.0.${113 + ((id >> 8) & 127)}.${id & 255}`;
  const ipv4 = privateIp ? [pub, `192.168.${128 + ((id >> 8) & 127)}.${id & 255}`] : [pub];
  return { ipv4, ipv6: `2001:db8::${id.toString(16)}/128` };
}

/** States with no running or queued action: the only ones actions start from. */
export const STEADY = ['running', 'offline'] as const;

export const SLOTS = ['sda', 'sdb', 'sdc', 'sdd', 'sde', 'sdf', 'sdg', 'sdh'] as const;
export type Slot = (typeof SLOTS)[number];
/** Slots a `fullvirt` profile cannot use. */
export const PARAVIRT_ONLY_SLOTS: readonly string[] = ['sde', 'sdf', 'sdg', 'sdh'];

/** The Limits table of the requirements. */
export const MAX_CONCURRENT_CLONES = 5;
export const MAX_VLANS_PER_REGION = 10;
/** Volumes attached with `persist_across_boots` (in a profile): per instance, so per profile too. */
export const MAX_PERSISTENT_VOLUMES = 8;
/** Volumes attached without it: one per GB of the instance's RAM, at most this many. */
export const MAX_TRANSIENT_VOLUMES = 64;

/** How many volumes an instance of `type` takes without persistence. */
export const transientVolumeLimit = (type: InstanceType) => Math.min(Math.floor(type.memory / 1024), MAX_TRANSIENT_VOLUMES);

/**
 * The watchdog boots an instance that powered off unexpectedly, and gives up once more than five
 * boot jobs (anyone's: boot, reboot, rescue, its own) started within 15 minutes.
 */
export const WATCHDOG_MAX_BOOT_JOBS = 5;
export const WATCHDOG_WINDOW_MS = 15 * 60_000;
/**
 * A boot job whose root device holds nothing stops when the kernel finds no root file system,
 * which takes the transition time but never more than this: six such jobs then always fall
 * within the watchdog's window, so its retries end (a job of 3 minutes or more would let it
 * boot forever).
 */
export const FAILED_BOOT_MAX_MS = 60_000;

export const DEFAULT_KERNEL = 'compute/latest-64bit';
export const DEFAULT_SWAP_MB = 512;
