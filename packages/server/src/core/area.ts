// What an area of the API (Volumes, Domains, ...) gives the server, and what its handlers get.
// An area lives in `src/areas/<area>/` and is listed once in `src/areas/index.ts`.
import type { Migration } from 'kysely';
import type { operations } from '@cloudapi/types';
import type { AuthContext, PermissionLevel } from './auth.js';
import type { Catalogue } from './catalogue.js';
import type { Clock } from './clock.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import type { Services, TaggableKind } from './services.js';
import type { OperationSpec } from './spec.js';
import type { Db, Store, Trx } from './store/db.js';

export type OperationId = keyof operations;

type Operation<K extends OperationId> = operations[K];
type Never<T> = [T] extends [never] ? Record<string, never> : T;

export type PathParams<K extends OperationId> = Operation<K> extends { parameters: { path?: infer P } } ? Never<NonNullable<P>> : Record<string, never>;
export type QueryParams<K extends OperationId> = Operation<K> extends { parameters: { query?: infer Q } } ? Never<NonNullable<Q>> : Record<string, never>;
/** The body as the spec types it: every optional field may be null. */
export type SpecRequestBody<K extends OperationId> = Operation<K> extends { requestBody: { content: { 'application/json': infer B } } }
  ? B
  : Operation<K> extends { requestBody?: { content: { 'application/json': infer B } } } ? B | undefined : undefined;
/** Null on a top-level field means "not set" and is removed before a handler runs (see keepNull). */
type WithoutNulls<B> = B extends object ? { [P in keyof B]: Exclude<B[P], null> } : B;
export type RequestBody<K extends OperationId> = [OperationId] extends [K] ? unknown : WithoutNulls<SpecRequestBody<K>>;
export type SuccessBody<K extends OperationId> = Operation<K> extends { responses: { 200: { content: { 'application/json': infer R } } } } ? R : unknown;

/** What every handler receives. `B` is its body: nulls removed, or as the spec types it with keepNull. */
export interface HandlerContext<K extends OperationId = OperationId, B = RequestBody<K>> {
  operation: OperationSpec;
  params: PathParams<K>;
  query: QueryParams<K>;
  /** The validated body, with null-valued top-level fields removed (null means "not set"). */
  body: B;
  /** Null on public operations and on optional-auth operations called without a token. */
  auth: AuthContext | null;
  store: Store;
  /** For reads. Writes go through `write`, one transaction per request. */
  db: Db;
  write<T>(work: (trx: Trx) => Promise<T>): Promise<T>;
  clock: Clock;
  catalogue: Catalogue;
  services: Services;
  /** The world outside the account: remote name servers, other accounts' bucket labels. */
  sandbox: Sandbox;
  /** Throws 403 unless the caller holds `level` (read_write satisfies read_only) on the object. */
  requirePermission(db: Db | Trx, entity: string, id: number | string, level: PermissionLevel): Promise<void>;
  /** Gives the caller read_write on an object it just created (restricted users keep what they make). */
  recordCreator(trx: Trx, entity: string, id: number | string): Promise<void>;
  /** Throws 403 unless the caller holds this account grant (for grants that only some requests need). */
  requireGrant(grant: string): void;
  /** The absolute URL of a path of this server, as the client reached it (`upload_to`). */
  absoluteUrl(path: string): string;
  /** The request as received, whatever carried it (the HTTP server's Fastify request, or the browser engine's). */
  request: RequestInfo;
}

/** What a handler may read of the request itself, besides its checked parts. */
export interface RequestInfo {
  /** The client's address (`127.0.0.1` in the browser engine). */
  ip: string;
  headers: Record<string, string | string[] | undefined>;
}

export type HandlerFn<K extends OperationId> = (ctx: HandlerContext<K>) => Promise<SuccessBody<K>>;

export interface HandlerOptions<K extends OperationId> {
  /** Its body is typed as the spec says (nulls possible): the fields in keepNull arrive as sent. */
  handle: (ctx: HandlerContext<K, SpecRequestBody<K>>) => Promise<SuccessBody<K>>;
  /**
   * Top-level body fields where null is a value (it clears the field, like an image's
   * `description`), not "unset". Every other null-valued top-level field is dropped before the
   * handler runs, and the body is validated again without it.
   */
  keepNull?: string[];
  /**
   * Account grants of the operation's `x-account-grants` that only some requests need (for
   * instance `unrestricted_user` only when `tags` are sent): the handler checks them with
   * `requireGrant`. Every other account grant is checked before the handler runs.
   */
  conditionalGrants?: string[];
  /**
   * The answer may be kept and answered again while nothing it was made from changes (core/store/
   * page-cache.ts): it depends only on the store's data, the request's URL and X-Filter and the
   * caller, and on the clock only through the states of the rows of the page that `paginate`
   * returns (settle() of their status, next_status, transition_at). Not for a list whose rows
   * show the states of other rows, whose query or rendering reads the clock otherwise, or that
   * sets headers of its answer. `cachedPages(handle)` below writes it.
   */
  cachedPages?: boolean;
}

export type HandlerDefinition<K extends OperationId> = HandlerFn<K> | HandlerOptions<K>;

export type Handlers = { [K in OperationId]?: HandlerDefinition<K> };

export interface Area {
  /** The folder name under src/areas, and the area part of its migration names. */
  name: string;
  /** The bundle's tags whose operations this area implements, every one of them. */
  tags: string[];
  handlers: Handlers;
  /** Named `<YYYYMMDDHHMM>_<area>_<what>` (see core/store/migrations.ts). */
  migrations?: Record<string, Migration>;
  /** Kinds of objects this area owns that tags can be put on. */
  taggables?: TaggableKind[];
  /** Cross-area services this area provides (see core/services.ts). */
  provides?: Partial<Services>;
  /** Extra routes outside the bundle's operations (the image upload URL). */
  routes?: (app: import('fastify').FastifyInstance, deps: AreaDeps) => void | Promise<void>;
}

/** What an area's extra routes can use. */
export interface AreaDeps {
  store: Store;
  clock: Clock;
  catalogue: Catalogue;
  services: Services;
}

/** Typed identity: each handler's context and result are checked against its operation. */
export function defineHandlers(handlers: Handlers): Handlers {
  return handlers;
}

/**
 * A list whose answer the page cache may keep (`cachedPages` above): `listVolumes:
 * cachedPages(async (ctx) => paginate(…))`.
 */
export function cachedPages<K extends OperationId>(handle: HandlerFn<K>): HandlerOptions<K> {
  return { cachedPages: true, handle: handle as HandlerOptions<K>['handle'] };
}

export function defineArea(area: Area): Area {
  return area;
}
