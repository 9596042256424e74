// What the server learns from the spec's bundle (`spec/dist/openapi.json`) at start-up: every
// operation with its route, parameters, bodies, success response, scopes and grants. Nothing here
// is written twice: a change to the bundle changes the server's routes, validation and security.
// No file is read here (spec-file.ts reads the bundle file), so the browser engine uses it too.
import { basePathOf, operationViews } from '@cloudapi/spec/bundle-model';
import { parameterExamples } from '@cloudapi/spec/walk';
import { RequestValidation } from '@cloudapi/spec/request-validation';

export type HttpMethod = 'GET' | 'PUT' | 'POST' | 'DELETE' | 'PATCH';

export interface ParameterSpec {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  /** JSON pointer of the parameter's schema in the bundle. */
  schemaPointer: string;
  /** True when an example value holds a `/` (image and kernel ids): the route also takes it unencoded. */
  slashValues: boolean;
}

export interface OperationSpec {
  operationId: string;
  method: HttpMethod;
  /** The path as the spec writes it, relative to `/v4`: `/volumes/{volumeId}`. */
  path: string;
  tags: string[];
  parameters: ParameterSpec[];
  /** Request body media types and their schema pointers; null without a body. */
  requestBody: { required: boolean; media: Map<string, string> } | null;
  success: { status: number; mediaType: string | null; schemaPointer: string | null };
  /** `public`: no token; `optional`: a token widens the answer; `secured`: a token is needed. */
  access: 'public' | 'optional' | 'secured';
  /** Each alternative is a list of scopes that must all be held (two scopes: both). */
  scopeAlternatives: string[][];
  /** `x-account-grants`: account grants (`add_volumes`), `unrestricted_user`, `<entity>:<level>`. */
  grants: string[];
}

export interface ApiSpec {
  document: any;
  version: string;
  /** The server URL's path, `/v4`. */
  basePath: string;
  operations: OperationSpec[];
  byId: Map<string, OperationSpec>;
  /** Every scope the security schemes define (`volumes:read_only`, ...). */
  scopes: Set<string>;
  /** Grant names a token may hold: account grants and the entities of object permissions. */
  accountGrants: Set<string>;
  permissionEntities: Set<string>;
  /** Each tag of the bundle (an area of the API) with its operationIds. */
  operationsByTag: Map<string, string[]>;
  /** Request validators of this bundle, compiled on first use: the HTTP layer's and the handlers'. */
  validation: RequestValidation;
}

const specOfOperation = new WeakMap<OperationSpec, ApiSpec>();

// One description per document object: engines made again on one bundle (a test suite's handler
// sets) reuse its compiled validators.
const describedDocuments = new WeakMap<object, ApiSpec>();

export function describeBundle(document: any): ApiSpec {
  let spec = describedDocuments.get(document);
  if (!spec) {
    spec = describeDocument(document);
    describedDocuments.set(document, spec);
  }
  return spec;
}

function describeDocument(document: any): ApiSpec {
  const operations: OperationSpec[] = operationViews(document).map((view) => ({
    operationId: view.operationId,
    method: view.method.toUpperCase() as HttpMethod,
    path: view.path,
    tags: view.tags,
    parameters: view.parameters.map((p): ParameterSpec => ({
      name: p.name,
      in: p.in,
      required: Boolean(p.required) || p.in === 'path',
      schemaPointer: `${p.pointer}/schema`,
      slashValues: parameterExamples(document, p).some((v) => typeof v === 'string' && v.includes('/')),
    })),
    requestBody: view.requestBody,
    success: view.success,
    access: view.security.access,
    scopeAlternatives: view.security.scopeAlternatives,
    grants: view.grants,
  }));

  const scopes = new Set<string>();
  for (const scheme of Object.values<any>(document.components?.securitySchemes ?? {})) {
    for (const flow of Object.values<any>(scheme.flows ?? {})) for (const scope of Object.keys(flow.scopes ?? {})) scopes.add(scope);
  }
  for (const op of operations) for (const list of op.scopeAlternatives) for (const scope of list) scopes.add(scope);

  const accountGrants = new Set<string>();
  const permissionEntities = new Set<string>();
  for (const op of operations) {
    for (const grant of op.grants) {
      if (grant.includes(':')) permissionEntities.add(grant.split(':')[0]!);
      else if (grant !== 'unrestricted_user') accountGrants.add(grant);
    }
  }
  // Tags need read_write on every object they tag: the kinds of tagged objects are entities too.
  for (const branch of document.components?.schemas?.TaggedObject?.oneOf ?? []) {
    const kind = branch?.properties?.type?.const;
    if (typeof kind === 'string') permissionEntities.add(kind);
  }

  const operationsByTag = new Map<string, string[]>();
  for (const op of operations) for (const tag of op.tags) operationsByTag.set(tag, [...(operationsByTag.get(tag) ?? []), op.operationId]);

  const spec: ApiSpec = {
    document,
    version: document.info?.version ?? '',
    basePath: basePathOf(document),
    operations,
    byId: new Map(operations.map((op) => [op.operationId, op])),
    scopes,
    accountGrants,
    permissionEntities,
    operationsByTag,
    validation: new RequestValidation(document),
  };
  for (const op of operations) specOfOperation.set(op, spec);
  return spec;
}

/**
 * The described bundle an operation belongs to: a handler reaches the server's own bundle (the one
 * `startServer({ bundleFile })` was given) and its compiled validators through `ctx.operation`.
 */
export function specOf(operation: OperationSpec): ApiSpec {
  const spec = specOfOperation.get(operation);
  if (!spec) throw new Error(`operation ${operation.operationId} belongs to no described bundle`);
  return spec;
}
