// What a handler gets (HandlerContext), made the same way on the HTTP server
// (http/handle-request.ts) and in the browser engine (engine.ts): the checked request, who asks,
// and what the rules may use (the store, the clock, the catalogue, the other areas' services, the
// sandbox, permission and grant checks).
import type { HandlerContext, OperationId, RequestInfo } from '../area.js';
import { hasAccountGrant } from '../access.js';
import type { AuthContext } from '../access.js';
import type { Catalogue } from '../catalogue.js';
import type { Clock } from '../clock.js';
import { forbidden } from '../errors.js';
import { recordCreator, requirePermission } from '../permissions.js';
import type { Services } from '../services.js';
import type { OperationSpec } from '../spec.js';
import type { Store } from '../store/db.js';
import type { Sandbox } from '../../sandbox/sandbox.js';
import type { CheckedRequest } from './check.js';

/** What every handler may use besides its request. */
export interface HandlerDeps {
  store: Store;
  clock: Clock;
  catalogue: Catalogue;
  services: Services;
  sandbox: Sandbox;
}

/** The request's side of a handler's context. */
export interface ContextRequest {
  checked: CheckedRequest;
  auth: AuthContext | null;
  request: RequestInfo;
  /** The absolute URL of a path of this server, as the client reached it. */
  absoluteUrl(path: string): string;
}

/** `clock`: the one the handler reads (a cached list page is rendered on a clock pinned for it). */
export function handlerContext(op: OperationSpec, { checked, auth, request, absoluteUrl }: ContextRequest, deps: HandlerDeps, clock: Clock = deps.clock): HandlerContext<OperationId> {
  const { params, query, body } = checked;
  const { store } = deps;
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
    absoluteUrl,
    request,
  };
}
