// One route per operation of the bundle (and per URL form of it), in request order: onRequest
// authenticates, preValidation checks the request, the handler calls the area. Operations that
// take no body are served where any body is dropped unread; an operation no started area serves
// answers 501.
import type { FastifyInstance } from 'fastify';
import type { RequestValidation } from '@cloudapi/spec/request-validation';
import type { HandlerOptions } from '../area.js';
import type { TokenTable } from '../auth.js';
import { routeUrls } from '../dispatch/route-urls.js';
import type { ApiSpec, OperationSpec } from '../spec.js';
import { authenticateRequest } from './authentication.js';
import { dropBodies } from './content-type-parser.js';
import type { SendError } from './error-handler.js';
import { handleRequest } from './handle-request.js';
import type { HandlerDeps } from './handle-request.js';
import type { ResponseSerialization } from './serialization.js';
import { validateRequest } from './validation.js';

export { routeUrls } from '../dispatch/route-urls.js';

export interface RouteOptions {
  spec: ApiSpec;
  handlers: Map<string, HandlerOptions<any>>;
  tokens: TokenTable;
  validation: RequestValidation;
  serialization: ResponseSerialization;
  sendError: SendError;
  deps: HandlerDeps;
}

function addOperation(app: FastifyInstance, op: OperationSpec, options: RouteOptions): void {
  const { spec, sendError } = options;
  const definition = options.handlers.get(op.operationId);
  const urls = routeUrls(spec.basePath, op);
  if (!definition) {
    const reason = `${op.operationId} (${op.method} ${op.path}) is not implemented by this server: no area serving it was started`;
    for (const { url } of urls) app.route({ method: op.method, url, handler: async (_request, reply) => sendError(reply, 501, [{ reason }]) });
    return;
  }
  const onRequest = authenticateRequest(op, options.tokens, new Set(definition.conditionalGrants ?? []));
  const validate = validateRequest(op, { spec, validation: options.validation, db: options.deps.store.db, keepNull: new Set(definition.keepNull ?? []) });
  const successSerializer = op.success.schemaPointer ? options.serialization.forPointer(op.success.schemaPointer) : null;
  const handler = handleRequest(op, definition, successSerializer, options.deps);
  for (const { url, wildcardParam } of urls) {
    // The unencoded form's wildcard is the path parameter.
    const preValidation = wildcardParam
      ? [(request: any, _reply: unknown, done: () => void) => { request.params = { [wildcardParam]: request.params['*'] }; done(); }, validate]
      : validate;
    app.route({ method: op.method, url, onRequest, preValidation, handler });
  }
}

export async function registerOperations(app: FastifyInstance, options: RouteOptions): Promise<void> {
  await app.register(async (scope) => {
    dropBodies(scope);
    for (const op of options.spec.operations.filter((op) => !op.requestBody)) addOperation(scope, op, options);
  });
  for (const op of options.spec.operations.filter((op) => op.requestBody)) addOperation(app, op, options);
}
