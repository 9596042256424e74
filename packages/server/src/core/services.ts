// Services one area offers others, so that areas meet only through these interfaces: the kinds
// of objects tags can go on, and what Compute knows about instances (Volumes, Images and Managed
// ask; a server started without the Compute area has no instance).
import type { HandlerContext } from './area.js';
import type { Db, Trx } from './store/db.js';

/** A kind of object that tags can be put on (`TaggedObject.type`), owned by one area. */
export interface TaggableKind {
  /** `TaggedObject.type`: `volume`, `domain`, `compute`, `balancer`. */
  type: string;
  /** The `TagCreateRequest` field that lists ids of this kind: `volumes`, `domains`, ... */
  field: string;
  /** The entity of object permissions (`<entity>:read_write`). */
  entity: string;
  /** Which of `ids` exist. */
  existing(db: Db | Trx, ids: number[]): Promise<Set<number>>;
  /** The objects as the API shows them (the `data` of a tagged object), by id. */
  load(db: Db | Trx, ids: number[], ctx: Pick<HandlerContext, 'clock' | 'services'>): Promise<Map<number, unknown>>;
}

export interface InstanceSummary {
  id: number;
  label: string;
  region: string;
  /** Display group (deprecated on instances, still shown by Managed compute settings). */
  group: string;
  /** The instance's public IPv4 addresses, first the primary one. */
  ipv4: string[];
}

/** What Compute knows that other areas ask (areas/compute/directory.ts). */
export interface ComputeDirectory {
  instance(db: Db | Trx, id: number): Promise<InstanceSummary | undefined>;
  /** A page of instances in id order and how many there are (Managed compute settings list one entry per instance). */
  page(db: Db | Trx, offset: number, limit: number): Promise<{ items: InstanceSummary[]; total: number }>;
  /** Labels of instances by id (a volume shows its instance's label). */
  labels(db: Db | Trx, ids: number[]): Promise<Map<number, string>>;
  /**
   * Where a volume attached to an instance goes, within the instance's limits: with
   * `persistent`, the config `configId` when given and the instance's, else the only config,
   * else the last booted one (at most eight volumes); without, no config, a running instance and
   * one volume per GB of its RAM. `{error}` when it cannot go there. Locks the instance's row:
   * call it in the transaction that attaches the volume.
   */
  placeVolume(trx: Trx, instanceId: number, placement: { configId?: number; persistent: boolean; now: number }): Promise<{ configId: number | null } | { error: string; field?: string }>;
  /** A disk of an instance, for capturing an image from it. */
  disk(db: Db | Trx, diskId: number): Promise<{ id: number; label: string; size: number; computeId: number } | undefined>;
}

export interface Services {
  computes: ComputeDirectory;
  /** Every taggable kind, by `TaggedObject.type`. */
  taggables: Map<string, TaggableKind>;
}

/** Without the Compute area (a server started with some areas only): no instance, config or disk exists. */
export const noComputes: ComputeDirectory = {
  instance: async () => undefined,
  page: async () => ({ items: [], total: 0 }),
  labels: async () => new Map(),
  placeVolume: async () => ({ error: 'The compute instance does not exist' }),
  disk: async () => undefined,
};
