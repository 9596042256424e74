// The handler call: the area's business rules get the checked request and what they may use (the
// store, the clock, the catalogue, the other areas' services, permission and grant checks); what
// they return is written by the operation's success serializer, with its success status.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { HandlerContext, HandlerOptions, OperationId } from '../area.js';
import { hasAccountGrant } from '../auth.js';
import type { Catalogue } from '../catalogue.js';
import type { Clock } from '../clock.js';
import { forbidden } from '../errors.js';
import { recordCreator, requirePermission } from '../permissions.js';
import type { Services } from '../services.js';
import type { OperationSpec } from '../spec.js';
import { filterOf } from '../filtering/header.js';
import type { Store } from '../store/db.js';
import { pageKey } from '../store/page-cache.js';
import type { Sandbox } from '../../sandbox/index.js';
import type { Serializer } from './serialization.js';

/** What Fastify writes for a JSON string; a cached answer (bytes) says the same. */
const JSON_UTF8 = 'application/json; charset=utf-8';

/** What every handler may use besides its request. */
export interface HandlerDeps {
  store: Store;
  clock: Clock;
  catalogue: Catalogue;
  services: Services;
  sandbox: Sandbox;
}

function contextOf(op: OperationSpec, request: FastifyRequest, reply: FastifyReply, deps: HandlerDeps, clock = deps.clock): HandlerContext<OperationId> {
  const { params, query, body } = request.checked!;
  const { store } = deps;
  const auth = request.auth;
  return {
    operation: op,
    params: params as never,
    query: query as never,
    body: body as never,
    auth,
    store,
    db: store.db,
    write: (work) => store.write(work),
    clock,
    catalogue: deps.catalogue,
    services: deps.services,
    sandbox: deps.sandbox,
    requirePermission: (db, entity, id, level) => requirePermission(db, auth, entity, id, level),
    recordCreator: (trx, entity, id) => recordCreator(trx, auth, entity, id),
    requireGrant: (grant) => {
      if (!op.grants.includes(grant)) throw new Error(`${op.operationId} checks grant "${grant}", which its x-account-grants does not list`);
      if (grant === 'unrestricted_user' ? auth?.restricted !== false : !auth || !hasAccountGrant(auth, grant)) {
        throw forbidden(grant === 'unrestricted_user' ? `This request needs an unrestricted user; this token belongs to a restricted one` : `This user lacks the grant ${grant} that this request needs`);
      }
    },
    absoluteUrl: (path) => `${request.protocol}://${request.host || `${request.socket.localAddress}:${request.socket.localPort}`}${path}`,
    request,
    reply,
    log: request.log,
  };
}

/**
 * The route handler of an operation: its definition's `handle`, answered with the success status
 * and schema; for an operation with `cachedPages`, from the store's page cache when it holds.
 */
export function handleRequest(op: OperationSpec, definition: HandlerOptions<any>, successSerializer: Serializer | null, deps: HandlerDeps) {
  const pages = definition.cachedPages && successSerializer ? deps.store.pages : undefined;
  if (pages) {
    return async (request: FastifyRequest, reply: FastifyReply) => {
      const key = pageKey(op.operationId, request.url, filterOf(request.checked!.query)?.text, request.auth?.tokenId);
      const body = await pages.answer(key, deps.clock, (clock) => definition.handle(contextOf(op, request, reply, deps, clock)), successSerializer!);
      return reply.code(op.success.status).type(JSON_UTF8).send(body);
    };
  }
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const result = await definition.handle(contextOf(op, request, reply, deps));
    reply.code(op.success.status);
    if (!successSerializer) return reply.send();
    return reply.type('application/json').send(successSerializer(result));
  };
}
