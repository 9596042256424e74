// Balancers: load balancers in a region, their configs (one per port, with the protocol and
// certificate rules), the configs' backend nodes (private addresses, health on the clock), the
// rebuild of a config with its whole set of nodes, and statistics.
import { cachedPages, defineArea, defineHandlers } from '../../core/area.js';
import type { HandlerContext } from '../../core/area.js';
import { transition } from '../../core/clock.js';
import { badRequest, notFound } from '../../core/errors.js';
import { forgetObject } from '../../core/permissions.js';
import { isUniqueViolation } from '../../core/store/constraints.js';
import { forUpdate } from '../../core/store/kind.js';
import type { Db, Trx } from '../../core/store/db.js';
import { paginate } from '../../core/store/pagination.js';
import { setTags, untagObject } from '../../core/tagging.js';
import { migrations } from './migrations.js';
import { applySettings } from './settings.js';
import type { SettingsInput } from './settings.js';
import { balancerStats } from './stats.js';
import { BALANCER_KIND, balancerStore, toBalancers, toConfigs, toNode } from './store.js';
import type { BalancerNode, BalancerRow, ConfigRow, ConfigSettings, NodeRow } from './store.js';

/** The region capability a balancer needs (from the catalogue's regions). */
const BALANCERS_CAPABILITY = 'Balancers';
const DEFAULT_THROTTLE = 0;
const DEFAULT_NODE = { mode: 'accept', weight: 100 } as const;

type Ctx = Pick<HandlerContext, 'db' | 'clock'>;
type NodeInput = { address?: string | null; label?: string | null; mode?: BalancerNode['mode'] | null; weight?: number | null };

/** Runs a write whose unique constraint on `field` may refuse it, answering 400 naming `field`. */
async function unique<T>(work: () => Promise<T>, reason: string, field: string): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw badRequest(reason, field);
    throw error;
  }
}

const labelTaken = (label: string) => `A balancer labelled "${label}" already exists on the account`;
const portTaken = (port: number) => `Port ${port} is already used by another config of this balancer`;

async function balancerOrNotFound(db: Db | Trx, id: number): Promise<BalancerRow> {
  const row = await balancerStore.find(db, id);
  if (!row) throw notFound(`Balancer ${id} does not exist`);
  return row;
}

/** The config of this balancer; in a write, locked against concurrent changes to it and its nodes. */
async function configOrNotFound(db: Db | Trx, balancerId: number, configId: number, lock = false): Promise<ConfigRow> {
  const query = db.selectFrom('balancer_configs').selectAll().where('id', '=', configId).where('balancer_id', '=', balancerId);
  const row = await (lock ? forUpdate(db, query) : query).executeTakeFirst();
  if (!row) {
    await balancerOrNotFound(db, balancerId);
    throw notFound(`Config ${configId} does not exist on balancer ${balancerId}`);
  }
  return row;
}

async function nodeOrNotFound(db: Db | Trx, balancerId: number, configId: number, nodeId: number): Promise<NodeRow> {
  const row = await db.selectFrom('balancer_nodes').selectAll().where('id', '=', nodeId).where('config_id', '=', configId).where('balancer_id', '=', balancerId).executeTakeFirst();
  if (!row) {
    await configOrNotFound(db, balancerId, configId);
    throw notFound(`Node ${nodeId} does not exist on config ${configId}`);
  }
  return row;
}

const shownBalancer = (row: BalancerRow) => toBalancers([row])[0]!;

async function shownConfig(ctx: Ctx, db: Db | Trx, row: ConfigRow) {
  return (await toConfigs(db, [row], ctx.clock))[0]!;
}

/** Inserts a config; a port the balancer already uses is a 400 naming `<at>port`, race-free (unique constraint). */
async function insertConfig(trx: Trx, balancerId: number, settings: ConfigSettings, at = ''): Promise<ConfigRow> {
  const row = await trx.insertInto('balancer_configs').values({ balancer_id: balancerId, ...settings })
    .onConflict((oc) => oc.columns(['balancer_id', 'port']).doNothing())
    .returningAll().executeTakeFirst();
  if (!row) throw badRequest(portTaken(settings.port), `${at}port`);
  return row;
}

/**
 * New nodes of a config. Their health is `Unknown` until the config's first check, the clock's
 * transition time later, then `UP`: this server runs no real checks.
 */
async function insertNodes(trx: Trx, ctx: Ctx, config: { id: number; balancer_id: number }, nodes: NodeInput[]): Promise<NodeRow[]> {
  if (!nodes.length) return [];
  return trx.insertInto('balancer_nodes').values(nodes.map((node) => ({
    config_id: config.id,
    balancer_id: config.balancer_id,
    address: node.address!,
    label: node.label!,
    mode: node.mode ?? DEFAULT_NODE.mode,
    weight: node.weight ?? DEFAULT_NODE.weight,
    ...transition(ctx.clock, 'Unknown', 'UP'),
  }))).returningAll().execute();
}

/** Changes a node; a new address starts its health over (`Unknown` until checked). */
async function updateNode(trx: Trx, ctx: Ctx, current: NodeRow, input: NodeInput): Promise<void> {
  const moved = input.address != null && input.address !== current.address;
  const changes = {
    ...(input.address != null ? { address: input.address } : {}),
    ...(input.label != null ? { label: input.label } : {}),
    ...(input.mode != null ? { mode: input.mode } : {}),
    ...(input.weight != null ? { weight: input.weight } : {}),
    ...(moved ? transition(ctx.clock, 'Unknown', 'UP') : {}),
  };
  if (Object.keys(changes).length) await trx.updateTable('balancer_nodes').set(changes).where('id', '=', current.id).execute();
}

/** Applies settings to a config row (port uniqueness held by the constraint). */
async function writeSettings(trx: Trx, config: ConfigRow, input: SettingsInput): Promise<ConfigRow> {
  const { id, balancer_id: balancerId, ...current } = config;
  const settings = applySettings(current, input);
  return unique(
    () => trx.updateTable('balancer_configs').set(settings).where('id', '=', id).returningAll().executeTakeFirstOrThrow(),
    portTaken(settings.port), 'port',
  );
}

/** Settings updates and rebuilds give `ssl_cert`/`ssl_key` null its meaning: no certificate. */
const CERTIFICATE_FIELDS = ['ssl_cert', 'ssl_key'];

export default defineArea({
  name: 'balancers',
  tags: ['Balancers'],
  migrations,
  taggables: [balancerStore.taggable],
  handlers: defineHandlers({
    listBalancers: cachedPages(async (ctx) => paginate(ctx.db, balancerStore.list(ctx.db), ctx.query, toBalancers)),

    getBalancer: async (ctx) => shownBalancer(await balancerOrNotFound(ctx.db, ctx.params.balancerId)),

    // The region must exist and offer balancers; the label is unique on the account (a left-out
    // one is `balancer<id>`); each config of `configs` has its own port and its nodes. All or nothing.
    createBalancer: async (ctx) => {
      const { region, label, client_conn_throttle: throttle = DEFAULT_THROTTLE, configs = [] } = ctx.body;
      const known = ctx.catalogue.region(region);
      if (!known) throw badRequest(`Region ${region} does not exist`, 'region');
      if (!known.capabilities.includes(BALANCERS_CAPABILITY)) throw badRequest(`Region ${region} does not offer ${BALANCERS_CAPABILITY}`, 'region');
      const settings = configs.map((config, i) => applySettings(undefined, config, `configs.${i}.`));
      const seen = new Map<number, number>();
      settings.forEach((s, i) => {
        if (seen.has(s.port)) throw badRequest(`Port ${s.port} is used by configs.${seen.get(s.port)} too: each config needs its own port`, `configs.${i}.port`);
        seen.set(s.port, i);
      });
      const row = await ctx.write(async (trx) => {
        const now = ctx.clock.now();
        const values = { region, client_conn_throttle: throttle, created: now, updated: now };
        let created: Omit<BalancerRow, 'tags'> | undefined;
        if (label !== undefined) {
          created = await trx.insertInto('balancers').values({ ...values, label })
            .onConflict((oc) => oc.column('label').doNothing()).returningAll().executeTakeFirst();
          if (!created) throw badRequest(labelTaken(label), 'label');
        } else {
          created = await trx.insertInto('balancers').values({ ...values, label: `pending-${now}-${Math.random()}` }).returningAll().executeTakeFirstOrThrow();
          created = await trx.updateTable('balancers').set({ label: await freeLabel(trx, created.id) }).where('id', '=', created.id).returningAll().executeTakeFirstOrThrow();
        }
        for (const [i, config] of configs.entries()) {
          const inserted = await insertConfig(trx, created.id, settings[i]!, `configs.${i}.`);
          await insertNodes(trx, ctx, inserted, config.nodes);
        }
        await ctx.recordCreator(trx, BALANCER_KIND, created.id);
        return { ...created, tags: null };
      });
      return shownBalancer(row);
    },

    // `transfer` is accepted and ignored (the service measures it); `tags` replaces the list.
    updateBalancer: async (ctx) => {
      const { balancerId } = ctx.params;
      const { label, client_conn_throttle: throttle, tags } = ctx.body;
      const row = await ctx.write(async (trx) => {
        await balancerOrNotFound(trx, balancerId);
        await unique(() => trx.updateTable('balancers').set({
          ...(label !== undefined ? { label } : {}),
          ...(throttle !== undefined ? { client_conn_throttle: throttle } : {}),
          updated: ctx.clock.now(),
        }).where('id', '=', balancerId).execute(), labelTaken(label ?? ''), 'label');
        if (tags !== undefined) await setTags(trx, BALANCER_KIND, balancerId, tags, ctx.clock.now());
        return balancerOrNotFound(trx, balancerId);
      });
      return shownBalancer(row);
    },

    // Irreversible: its configs and nodes go with it (foreign keys); its addresses are not reused.
    deleteBalancer: async (ctx) => {
      const { balancerId } = ctx.params;
      await ctx.write(async (trx) => {
        const result = await trx.deleteFrom('balancers').where('id', '=', balancerId).executeTakeFirst();
        if (Number(result.numDeletedRows) === 0) throw notFound(`Balancer ${balancerId} does not exist`);
        await untagObject(trx, BALANCER_KIND, balancerId);
        await forgetObject(trx, BALANCER_KIND, balancerId);
      });
      return {};
    },

    listBalancerConfigs: async (ctx) => {
      const { balancerId } = ctx.params;
      await balancerOrNotFound(ctx.db, balancerId);
      return paginate(ctx.db, ctx.db.selectFrom('balancer_configs').selectAll().where('balancer_id', '=', balancerId).orderBy('id'), ctx.query, (rows) => toConfigs(ctx.db, rows, ctx.clock));
    },

    getBalancerConfig: async (ctx) => shownConfig(ctx, ctx.db, await configOrNotFound(ctx.db, ctx.params.balancerId, ctx.params.configId)),

    createBalancerConfig: async (ctx) => {
      const { balancerId } = ctx.params;
      const { nodes = [], ...input } = ctx.body;
      const settings = applySettings(undefined, input);
      const row = await ctx.write(async (trx) => {
        // Locked, so that a concurrent delete of the balancer waits rather than breaks the foreign key.
        const parent = await forUpdate(trx, trx.selectFrom('balancers').select('id').where('id', '=', balancerId)).executeTakeFirst();
        if (!parent) throw notFound(`Balancer ${balancerId} does not exist`);
        const config = await insertConfig(trx, balancerId, settings);
        await insertNodes(trx, ctx, config, nodes);
        return config;
      });
      return shownConfig(ctx, ctx.db, row);
    },

    updateBalancerConfig: {
      keepNull: CERTIFICATE_FIELDS,
      handle: async (ctx) => {
        const { balancerId, configId } = ctx.params;
        const row = await ctx.write(async (trx) => writeSettings(trx, await configOrNotFound(trx, balancerId, configId, true), ctx.body));
        return shownConfig(ctx, ctx.db, row);
      },
    },

    // Irreversible: its nodes go with it.
    deleteBalancerConfig: async (ctx) => {
      const { balancerId, configId } = ctx.params;
      await ctx.write(async (trx) => {
        const result = await trx.deleteFrom('balancer_configs').where('id', '=', configId).where('balancer_id', '=', balancerId).executeTakeFirst();
        if (Number(result.numDeletedRows) === 0) await configOrNotFound(trx, balancerId, configId);
      });
      return {};
    },

    // The settings as an update, and `nodes` the config's whole set: entries with `id` update
    // that node of this config, entries without one are created, nodes not listed are deleted.
    rebuildBalancerConfig: {
      keepNull: CERTIFICATE_FIELDS,
      handle: async (ctx) => {
        const { balancerId, configId } = ctx.params;
        const { nodes, ...input } = ctx.body;
        const row = await ctx.write(async (trx) => {
          const config = await configOrNotFound(trx, balancerId, configId, true);
          const existing = new Map((await trx.selectFrom('balancer_nodes').selectAll().where('config_id', '=', configId).execute()).map((n) => [n.id, n]));
          const listed = new Set<number>();
          nodes.forEach((node, i) => {
            if (node.id == null) return;
            if (!existing.has(node.id)) throw badRequest(`Node ${node.id} is not a node of config ${configId}`, `nodes.${i}.id`);
            if (listed.has(node.id)) throw badRequest(`Node ${node.id} is listed twice`, `nodes.${i}.id`);
            listed.add(node.id);
          });
          const updated = await writeSettings(trx, config, input);
          const dropped = [...existing.keys()].filter((id) => !listed.has(id));
          if (dropped.length) await trx.deleteFrom('balancer_nodes').where('id', 'in', dropped).execute();
          for (const node of nodes) if (node.id != null) await updateNode(trx, ctx, existing.get(node.id)!, node);
          await insertNodes(trx, ctx, config, nodes.filter((node) => node.id == null));
          return updated;
        });
        return shownConfig(ctx, ctx.db, row);
      },
    },

    listBalancerNodes: cachedPages(async (ctx) => {
      const { balancerId, configId } = ctx.params;
      await configOrNotFound(ctx.db, balancerId, configId);
      const now = ctx.clock.now();
      return paginate(ctx.db, ctx.db.selectFrom('balancer_nodes').selectAll().where('config_id', '=', configId).orderBy('id'), ctx.query, (rows) => rows.map((r) => toNode(r, now)));
    }),

    getBalancerNode: async (ctx) => {
      const { balancerId, configId, nodeId } = ctx.params;
      return toNode(await nodeOrNotFound(ctx.db, balancerId, configId, nodeId), ctx.clock.now());
    },

    createBalancerNode: async (ctx) => {
      const { balancerId, configId } = ctx.params;
      const [row] = await ctx.write(async (trx) => insertNodes(trx, ctx, await configOrNotFound(trx, balancerId, configId, true), [ctx.body]));
      return toNode(row!, ctx.clock.now());
    },

    updateBalancerNode: async (ctx) => {
      const { balancerId, configId, nodeId } = ctx.params;
      const row = await ctx.write(async (trx) => {
        await updateNode(trx, ctx, await nodeOrNotFound(trx, balancerId, configId, nodeId), ctx.body);
        return nodeOrNotFound(trx, balancerId, configId, nodeId);
      });
      return toNode(row, ctx.clock.now());
    },

    deleteBalancerNode: async (ctx) => {
      const { balancerId, configId, nodeId } = ctx.params;
      await ctx.write(async (trx) => {
        const result = await trx.deleteFrom('balancer_nodes').where('id', '=', nodeId).where('config_id', '=', configId).where('balancer_id', '=', balancerId).executeTakeFirst();
        if (Number(result.numDeletedRows) === 0) await nodeOrNotFound(trx, balancerId, configId, nodeId);
      });
      return {};
    },

    getBalancerStats: async (ctx) => balancerStats(await balancerOrNotFound(ctx.db, ctx.params.balancerId), ctx.clock.now()),
  }),
});

/** `balancer<id>`, or with a suffix when the account already uses that label. */
async function freeLabel(trx: Trx, id: number): Promise<string> {
  for (let n = 0; ; n++) {
    const candidate = n === 0 ? `balancer${id}` : `balancer${id}-${n}`;
    const taken = await trx.selectFrom('balancers').select('id').where('label', '=', candidate).executeTakeFirst();
    if (!taken) return candidate;
  }
}
