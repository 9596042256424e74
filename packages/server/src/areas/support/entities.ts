// The one object a ticket may be about (`domain_id`, `compute_id`, ...; the schema lets at most
// one through). Objects this API serves must exist and be visible to the user: instances through
// `services.computes`, domains, balancers and volumes through their area's TaggableKind. Until an
// area is part of the server, none of its objects exists. Kubernetes clusters and metrics clients
// are served by no operation of this API, so the server cannot know them: their ids are taken
// as given.
import type { HandlerContext } from '../../core/area.js';
import { badRequest } from '../../core/errors.js';

export interface TicketEntity {
  id: number;
  label: string;
  type: string;
  url: string;
}

type IdAttribute = 'domain_id' | 'compute_id' | 'kubecluster_id' | 'metrics_client_id' | 'balancer_id' | 'volume_id';

/** Kinds another area of this API holds: the taggable kind and the object's API path. */
const SERVED: Partial<Record<IdAttribute, { kind: string; path: string }>> = {
  domain_id: { kind: 'domain', path: '/v4/domains/' },
  balancer_id: { kind: 'balancer', path: '/v4/balancers/' },
  volume_id: { kind: 'volume', path: '/v4/volumes/' },
};
/** Kinds no operation of this API serves. */
const UNKNOWN_TO_THIS_API: Partial<Record<IdAttribute, { type: string; path: string }>> = {
  kubecluster_id: { type: 'kubecluster', path: '/v4/kubecluster/clusters/' },
  metrics_client_id: { type: 'metrics_client', path: '/v4/metrics/clients/' },
};

export async function ticketEntity(ctx: HandlerContext, body: Partial<Record<IdAttribute, number>>): Promise<TicketEntity | null> {
  const attribute = (Object.keys(body) as IdAttribute[]).find((key) => key in SERVED || key in UNKNOWN_TO_THIS_API || key === 'compute_id');
  if (!attribute) return null;
  const id = body[attribute]!;
  if (attribute === 'compute_id') {
    const instance = await ctx.services.computes.instance(ctx.db, id);
    if (!instance) throw badRequest(`Compute instance ${id} does not exist`, attribute);
    await ctx.requirePermission(ctx.db, 'compute', id, 'read_only');
    return { id, label: instance.label, type: 'compute', url: `/v4/compute/instances/${id}` };
  }
  const unknown = UNKNOWN_TO_THIS_API[attribute];
  if (unknown) return { id, label: `${unknown.type} ${id}`, type: unknown.type, url: `${unknown.path}${id}` };
  const { kind, path } = SERVED[attribute]!;
  const taggable = ctx.services.taggables.get(kind);
  const object = taggable ? (await taggable.load(ctx.db, [id], ctx)).get(id) as { label?: string; domain?: string } | undefined : undefined;
  if (!taggable || !object) throw badRequest(`There is no ${kind} ${id}`, attribute);
  await ctx.requirePermission(ctx.db, taggable.entity, id, 'read_only');
  return { id, label: object.label ?? object.domain ?? `${kind} ${id}`, type: kind, url: `${path}${id}` };
}
