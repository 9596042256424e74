// What the project's servers trust, in one place: the docs' static server, the mock and the
// reference server all take their Host rule and their CORS policy from here, so that the three
// answer a hostile neighbour (another page in the browser, a DNS-rebinding name, a crafted link)
// the same way. Each server applies the decisions at its own boundary and writes the refusal in
// its own form (plain text for the docs, the spec's ErrorResponse for the mock and the server).
//
// Trusted hosts (DESIGN.md, "trusted hosts"): a request is answered only when its Host is an IP
// address, `localhost` or a name under `.localhost`, with any port, or a name added with
// ALLOWED_HOSTS / --allowed-host (`.example.com` adds example.com and every name under it). A
// page whose name an attacker re-points at 127.0.0.1 (DNS rebinding) sends its own name as Host,
// so it is refused however it got there.
//
// CORS: only the origins named are trusted, and no answer ever allows credentials: the API takes
// a bearer token in `Authorization`, which a page sends without credentials mode, and none of the
// servers sets a cookie (spec/DECISIONS.md, "CORS"). `*` trusts every origin with
// `access-control-allow-origin: *`. The `null` origin (files, sandboxed frames, some redirects) is
// never trusted. Naming `http://localhost:P` trusts `http://127.0.0.1:P` and `http://[::1]:P`
// too, and the other way round: the same page to a developer.
import { isIPv4, isIPv6 } from 'node:net';

export class TrustSettingError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'TrustSettingError';
  }
}

// ---- Trusted hosts --------------------------------------------------------------------------

const LABEL = '[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?';
const NAME = `${LABEL}(?:\\.${LABEL})*\\.?`;
/** A host name as a Host header carries it (a trailing dot allowed). */
const HOST_NAME = new RegExp(`^${NAME}$`);
/** An ALLOWED_HOSTS entry: a host name, or `.name` for it and every name under it. */
const ALLOWED_NAME = new RegExp(`^\\.?${NAME}$`);

/**
 * The ALLOWED_HOSTS setting (comma- or space-separated, or a list from repeated --allowed-host)
 * as lower-case names; `.example.com` stands for example.com and every name under it. Throws a
 * TrustSettingError naming an entry that is no host name.
 * @param {string | readonly string[] | undefined | null} input
 * @returns {string[]}
 */
export function parseAllowedHosts(input) {
  const entries = (Array.isArray(input) ? input : [input]).flatMap((item) => String(item ?? '').split(/[\s,]+/)).filter(Boolean);
  return entries.map((entry) => {
    const name = entry.toLowerCase();
    if (!ALLOWED_NAME.test(name)) {
      throw new TrustSettingError(`ALLOWED_HOSTS: "${entry}" is not a host name: write the name alone, without scheme or port (myhost.example), or .example.com for that name and every name under it`);
    }
    return name.replace(/(?<=.)\.$/, '');
  });
}

/**
 * A Host header value (`name`, `name:port`, `[v6]:port`) split into its lower-case name and
 * port, or null when it is not one.
 * @param {string} value
 * @returns {{ name: string, port: string | null } | null}
 */
export function parseHostHeader(value) {
  const match = /^(\[[^\]]*\]|[^:[\]]+)(?::(\d{0,5}))?$/.exec(String(value).trim());
  if (!match) return null;
  const name = match[1].toLowerCase();
  if (name.startsWith('[') ? !isIPv6(name.slice(1, -1)) : !(isIPv4(name) || HOST_NAME.test(name))) return null;
  return { name, port: match[2] || null };
}

/** Whether a host name is an IP address, `localhost` or under `.localhost`: served without being named. */
function servedByDefault(name) {
  if (name.startsWith('[') || isIPv4(name)) return true;
  const bare = name.replace(/\.$/, '');
  return bare === 'localhost' || bare.endsWith('.localhost');
}

/**
 * @typedef {object} RequestHead what the rule reads of a request (node:http's IncomingMessage has it)
 * @property {string} [method]
 * @property {string} [url] the request target as sent
 * @property {string} [httpVersion]
 * @property {Record<string, string | string[] | undefined>} headers
 * @property {string[]} [rawHeaders] to count repeated Host headers
 */

/**
 * @typedef {{ ok: true, target: string } | { ok: false, status: number, reason: string }} HostVerdict
 * `target` is the request target in origin-form (`/path?query`): an absolute-form target whose
 * authority is the Host is served as its path.
 */

/**
 * The Host rule with the names ALLOWED_HOSTS adds.
 * @param {string | readonly string[] | undefined | null} [allowedHosts]
 */
export function createHostRule(allowedHosts = []) {
  const named = parseAllowedHosts(allowedHosts);
  const widen = (name) => `start it with ALLOWED_HOSTS=${name} (or --allowed-host ${name})`;

  /** @param {string} name a lower-case host name or bracketed IPv6 address */
  function allows(name) {
    if (servedByDefault(name)) return true;
    const bare = name.replace(/\.$/, '');
    return named.some((entry) => (entry.startsWith('.') ? bare === entry.slice(1) || bare.endsWith(entry) : bare === entry));
  }

  /**
   * Whether to answer this request: its Host (exactly one, allowed) and its request target (a
   * path, or an absolute URL naming the same host).
   * @param {RequestHead} request
   * @returns {HostVerdict}
   */
  function check(request) {
    const raw = request.rawHeaders ?? [];
    let hosts = 0;
    for (let i = 0; i < raw.length; i += 2) if (raw[i].length === 4 && raw[i].toLowerCase() === 'host') hosts += 1;
    const value = request.headers.host;
    if (hosts > 1) return { ok: false, status: 400, reason: `Send one Host header, not ${hosts}.` };
    if (typeof value !== 'string' || value === '') return { ok: false, status: 400, reason: 'Send a Host header naming this server (this server answers no request without one, HTTP/1.0 included).' };
    const host = parseHostHeader(value);
    if (!host) return { ok: false, status: 400, reason: `The Host header "${printable(value)}" is not a host name with an optional port.` };
    if (!allows(host.name)) {
      return {
        ok: false,
        status: 403,
        reason: `The Host "${printable(value)}" is not served here: this server answers only its IP addresses, localhost and names under .localhost (a guard against DNS rebinding). To reach it by this name, ${widen(host.name.replace(/\.$/, ''))}.`,
      };
    }
    return checkTarget(request.url ?? '', host, value);
  }

  function checkTarget(target, host, value) {
    if (target.startsWith('/')) return { ok: true, target };
    const absolute = /^https?:\/\/([^/?#]*)([^#]*)/i.exec(target);
    if (!absolute) {
      return { ok: false, status: 400, reason: `The request target "${printable(target.slice(0, 100))}" is not a path: send the path of what you ask for, such as / or /v4/regions (this server is no proxy).` };
    }
    const named = parseHostHeader(absolute[1]);
    if (!named || named.name !== host.name || named.port !== host.port) {
      return { ok: false, status: 400, reason: `The request target names the host "${printable(absolute[1])}" but the Host header says "${printable(value)}": send the path alone (this server is no proxy).` };
    }
    const rest = absolute[2];
    return { ok: true, target: rest.startsWith('/') ? rest : `/${rest}` };
  }

  return { allowedHosts: named, allows, check };
}

/** A header value or target as it may be quoted back: control characters escaped, at most 200 characters. */
function printable(text) {
  return JSON.stringify(String(text).slice(0, 200)).slice(1, -1);
}

const WILDCARD_ADDRESSES = new Set(['0.0.0.0', '::', '[::]', '0:0:0:0:0:0:0:0']);

/**
 * What to tell a user who binds a server to every interface (`HOST=0.0.0.0`): how other machines
 * may reach it and what that exposes. Null for any other address.
 * @param {string} host the listening address
 * @param {{ allowedHosts?: readonly string[], what?: string }} [options]
 * @returns {string | null}
 */
export function exposureNotice(host, { allowedHosts = [], what = 'it' } = {}) {
  if (!WILDCARD_ADDRESSES.has(String(host))) return null;
  const names = allowedHosts.length ? `answers the names ${allowedHosts.join(', ')} besides IP addresses and localhost` : 'answers IP addresses and localhost only: to open it by a name (http://my-machine:PORT), add ALLOWED_HOSTS=my-machine (comma-separated, or --allowed-host)';
  return `HOST=${host}: every machine that reaches this one can call ${what}; it ${names}. Never expose the reference server this way without a TOKENS_FILE of your own (README, "Security").`;
}

// ---- CORS -------------------------------------------------------------------------------------

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/**
 * Checks each CORS origin is `scheme://host[:port]` (or `*`) and adds the loopback twins of each
 * (`http://localhost:P` ⇄ `http://127.0.0.1:P` ⇄ `http://[::1]:P`). Throws a TrustSettingError
 * naming a bad origin; `null` is refused, as it is never trusted.
 * @param {string | readonly string[] | undefined | null} input comma- or space-separated, or a list
 * @returns {string[]}
 */
export function parseCorsOrigins(input) {
  const entries = (Array.isArray(input) ? input : [input]).flatMap((item) => String(item ?? '').split(/[\s,]+/)).filter(Boolean);
  const origins = new Set();
  for (const raw of entries) {
    const origin = raw.replace(/\/$/, '');
    if (origin === '*') { origins.add('*'); continue; }
    if (origin === 'null') throw new TrustSettingError('CORS origin "null" is never trusted: pages opened from a file or a sandboxed frame send it, and so can any page. Serve the page over http and add that origin.');
    let url = null;
    try { url = new URL(origin); } catch { /* reported below */ }
    if (!url || !/^https?:$/.test(url.protocol) || url.origin !== origin.toLowerCase()) {
      throw new TrustSettingError(`CORS origin "${raw}" must be a scheme, host and port only, such as http://127.0.0.1:8080 (or * for any)`);
    }
    for (const twin of loopbackTwins(url.origin)) origins.add(twin);
  }
  return [...origins];
}

/**
 * `origin` and, when its host is a loopback name, the same scheme and port on the other two.
 * @param {string} origin
 * @returns {string[]}
 */
export function loopbackTwins(origin) {
  const url = new URL(origin);
  if (!LOOPBACK_NAMES.includes(url.hostname)) return [url.origin];
  return LOOPBACK_NAMES.map((name) => `${url.protocol}//${name}${url.port ? `:${url.port}` : ''}`);
}

const ALLOWED_METHODS = 'GET, POST, PUT, DELETE, PATCH, HEAD';
// A preflight may ask for these headers; anything that is no header name is not echoed back.
const HEADER_LIST = /^[!#$%&'*+.^_`|~0-9a-z-]+(?:\s*,\s*[!#$%&'*+.^_`|~0-9a-z-]+)*$/i;

/**
 * @typedef {object} PreflightAnswer
 * @property {number} status 204 for a trusted origin, 403 otherwise
 * @property {Record<string, string>} headers
 * @property {string} [reason] why the origin is refused (answer it, and log it: a browser hides it)
 */

/**
 * The CORS policy of a server: which origins may read its answers from a page, what a preflight
 * is answered. Framework-free: callers pass header values and set what comes back.
 * @param {string | readonly string[] | undefined | null} [origins] see parseCorsOrigins
 */
export function createCorsPolicy(origins = []) {
  const trusted = new Set(parseCorsOrigins(origins));
  const any = trusted.has('*');

  /** @param {string | undefined} origin */
  const trusts = (origin) => typeof origin === 'string' && origin !== 'null' && (any || trusted.has(origin));

  /**
   * The CORS headers of an answer to a request from `origin` (`vary: origin` whatever it is).
   * @param {string | undefined} origin
   * @returns {Record<string, string>}
   */
  function headers(origin) {
    if (!trusts(origin)) return { vary: 'origin' };
    return { 'access-control-allow-origin': any ? '*' : origin, 'access-control-expose-headers': '*', vary: 'origin' };
  }

  /**
   * Why a page of `origin` is not trusted, and how to trust it.
   * @param {string} origin
   */
  function refusal(origin) {
    if (origin === 'null') return 'A page with the origin "null" (opened from a file, or in a sandboxed frame) is never trusted for cross-origin calls: serve it over http and add its origin with --cors-origin or CORS_ORIGINS.';
    return `The origin ${printable(origin)} is not trusted for cross-origin calls: add it with --cors-origin or CORS_ORIGINS.`;
  }

  /**
   * The answer to a CORS preflight, or null when the request is not one.
   * @param {{ method?: string, headers: Record<string, string | string[] | undefined> }} request
   * @returns {PreflightAnswer | null}
   */
  function preflight(request) {
    const origin = request.headers.origin;
    const asked = request.headers['access-control-request-method'];
    if (request.method !== 'OPTIONS' || typeof origin !== 'string' || asked === undefined) return null;
    if (!trusts(origin)) return { status: 403, headers: { vary: 'origin' }, reason: refusal(origin) };
    const wanted = request.headers['access-control-request-headers'];
    return {
      status: 204,
      headers: {
        ...headers(origin),
        'access-control-allow-methods': ALLOWED_METHODS,
        'access-control-allow-headers': typeof wanted === 'string' && HEADER_LIST.test(wanted.trim()) ? wanted.trim() : 'authorization, content-type',
        // Private Network Access: a public page asking to reach this loopback server.
        ...(request.headers['access-control-request-private-network'] === 'true' ? { 'access-control-allow-private-network': 'true' } : {}),
        'access-control-max-age': '600',
      },
    };
  }

  return { origins: [...trusted], any, trusts, headers, preflight, refusal };
}

/**
 * A bounded memory of what was already told: `first(key)` is true the first time a key is seen
 * (until `limit` keys were seen, when it starts over), so a refusal is logged once per origin
 * without a flood of origins growing a table.
 * @param {number} [limit]
 */
export function firstSightings(limit = 1000) {
  const seen = new Set();
  return {
    /** @param {string} key */
    first(key) {
      if (seen.has(key)) return false;
      if (seen.size >= limit) seen.clear();
      seen.add(key);
      return true;
    },
  };
}
