// The one object a ticket may be about (`domain_id`, `compute_id`, ...; the schema lets at most
// one through). Objects this API serves must exist and be visible to the user: instances through
// `services.computes`, domains, balancers and volumes through their area's TaggableKind. Until an
// area is part of the server, none of its objects exists. Kubernetes clusters and metrics clients
// are served by no operation of this API, so the server cannot know them: their ids are taken
// as given.
import type { HandlerContext } from '../../core/area.js';
import { badRequest } from '../../core/errors.js';
import { specOf } from '../../core/spec.js';

export interface TicketEntity {
  id: number;
  label: string;
  type: string;
  url: string;
}

type IdAttribute = 'domain_id' | 'compute_id' | 'kubecluster_id' | 'metrics_client_id' | 'balancer_id' | 'volume_id';

/** Kinds another area of this API holds: the taggable kind and the object's path below the base path. */
const SERVED: Partial<Record<IdAttribute, { kind: string; path: string }>> = {
  domain_id: { kind: 'domain', path: '/domains/' },
  balancer_id: { kind: 'balancer', path: '/balancers/' },
  volume_id: { kind: 'volume', path: '/volumes/' },
};
/** Kinds no operation of this API serves. */
const UNKNOWN_TO_THIS_API: Partial<Record<IdAttribute, { type: string; path: string }>> = {
  kubecluster_id: { type: 'kubecluster', path: '/kubecluster/clusters/' },
  metrics_client_id: { type: 'metrics_client', path: '/metrics/clients/' },
};

export async function ticketEntity(ctx: HandlerContext, body: Partial<Record<IdAttribute, number>>): Promise<TicketEntity | null> {
  const attribute = (Object.keys(body) as IdAttribute[]).find((key) => key in SERVED || key in UNKNOWN_TO_THIS_API || key === 'compute_id');
  if (!attribute) return null;
  const id = body[attribute]!;
  // The object's URL as the API serves it: below the bundle's base path (`/v4`).
  const { basePath } = specOf(ctx.operation);
  if (attribute === 'compute_id') {
    const instance = await ctx.services.computes.instance(ctx.db, id);
    if (!instance) throw badRequest(`Compute instance ${id} does not exist`, attribute);
    await ctx.requirePermission(ctx.db, 'compute', id, 'read_only');
    return { id, label: instance.label, type: 'compute', url: `${basePath}/compute/instances/${id}` };
  }
  const unknown = UNKNOWN_TO_THIS_API[attribute];
  if (unknown) return { id, label: `${unknown.type} ${id}`, type: unknown.type, url: `${basePath}${unknown.path}${id}` };
  const { kind, path } = SERVED[attribute]!;
  const taggable = ctx.services.taggables.get(kind);
  const object = taggable ? (await taggable.load(ctx.db, [id], ctx)).get(id) as { label?: string; domain?: string } | undefined : undefined;
  if (!taggable || !object) throw badRequest(`There is no ${kind} ${id}`, attribute);
  await ctx.requirePermission(ctx.db, taggable.entity, id, 'read_only');
  return { id, label: object.label ?? object.domain ?? `${kind} ${id}`, type: kind, url: `${basePath}${path}${id}` };
}
