// The stateful mode (`createHandlers({ stateful: true })`): every request goes to the reference
// server's engine (@cloudapi/server/engine, bundled into this package): its areas, rules,
// catalogue, id sequences, clock, X-Filter, pages, checks and error texts, on SQLite compiled to
// WebAssembly in memory. Nothing here decides an answer: this file only carries requests in,
// answers out, and the database to and from the page's storage when asked.
import type { Engine, EngineRequest } from '@cloudapi/server/engine';
import { HttpResponse } from 'msw';
import { bundle } from './bundle.js';

/**
 * A token as the server's tokens file lists it (`TOKENS_FILE`): its scopes (`*` or a
 * space-separated list), account grants and whether its user is restricted. The same shape as
 * the engine's `TokenEntry` (test/types.test-d.ts holds them equal); declared here so that this
 * package's declarations need nothing of the server's.
 */
export interface TokenEntry {
  token: string;
  scopes: string;
  grants?: 'all' | string[];
  restricted?: boolean;
}

/** Where a state is kept: `sessionStorage`, `localStorage`, or the same methods answering promises. */
export interface StateStorage {
  getItem(key: string): string | null | Promise<string | null | undefined>;
  setItem(key: string, value: string): void | Promise<void>;
  removeItem(key: string): void | Promise<void>;
}

export interface StatefulOptions {
  /** How long a state the service reaches later lasts (`creating` → `active`), in ms; 0 makes it immediate. Default 2000, as the server's `TRANSITION_MS`. */
  transitionMs?: number;
  /** `any` (the default): any bearer token is a full-access token. Or the entries of a tokens file (`{token, scopes, grants, restricted}`), checked as the server checks them. */
  tokens?: 'any' | TokenEntry[];
  /**
   * Keep the state across page loads in this storage, under `key`: a browser's `sessionStorage`
   * or `localStorage`, or an asynchronous one with the same three methods (IndexedDB through a
   * small adapter, for states larger than those allow). Default: not kept.
   */
  persist?: { storage: StateStorage; key?: string };
}

/** The state behind stateful handlers. */
export interface StatefulStore {
  /** Resolves once the engine has loaded (the first request waits for it anyway). */
  ready(): Promise<void>;
  /** Back to the first state: no objects, ids from 1 again (and the persisted copy forgotten). Requests made meanwhile wait for it. */
  reset(): Promise<void>;
  /** The database's bytes (a SQLite file). */
  exportDatabase(): Promise<Uint8Array>;
  /** Frees the database's WebAssembly memory; the handlers answer nothing after it. For suites that make many handler sets. */
  close(): Promise<void>;
}

const DEFAULT_KEY = 'cloudapi-msw-state';
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

const base64 = (bytes: Uint8Array) => {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
};
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

/** The request as the engine takes it. */
async function engineRequest(request: Request): Promise<EngineRequest> {
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => { headers[name.toLowerCase()] = value; });
  const body = READS.has(request.method) ? null : new Uint8Array(await request.clone().arrayBuffer());
  return { method: request.method, url: request.url, headers, body };
}

/** The engine behind a set of stateful handlers, and the resolver they share. */
export function createStatefulState(options: StatefulOptions) {
  const persist = options.persist ? { storage: options.persist.storage, key: options.persist.key ?? DEFAULT_KEY } : null;
  // Loaded on first use, as a chunk of its own: the examples mode never loads the engine (1.7 MB).
  const engine = Promise.all([import('@cloudapi/server/engine'), persist?.storage.getItem(persist.key)]).then(([{ createEngine }, saved]) => createEngine({
    document: bundle,
    transitionMs: options.transitionMs,
    tokens: options.tokens,
    database: saved ? fromBase64(saved) : undefined,
  }));
  // A reset queues here; requests made after it wait for it, so none sees the state before it.
  let resets: Promise<unknown> = engine;
  const ready = async () => {
    await resets;
    return engine;
  };

  const store: StatefulStore = {
    ready: async () => { await ready(); },
    reset: () => {
      const done = resets.then(async () => {
        await (await engine).reset();
        await persist?.storage.removeItem(persist.key);
      });
      resets = done.catch(() => undefined);
      return done;
    },
    exportDatabase: async () => (await ready()).exportDatabase(),
    close: async () => (await ready()).close(),
  };

  const resolver = async ({ request }: { request: Request }) => {
    const asked = await engineRequest(request);
    const running = await ready();
    const answer = await running.handle(asked);
    if (persist && !READS.has(asked.method) && answer.status < 400) await persist.storage.setItem(persist.key, base64(await running.exportDatabase()));
    return new HttpResponse(answer.body, { status: answer.status, headers: answer.headers });
  };
  return { store, resolver };
}
