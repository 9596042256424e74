// Fault injection, shared by the mock and the reference server: parses the FAULTS setting (the
// fixed format of DESIGN.md) and decides, per request, which fault to inject. The caller applies
// the decision (waits, answers 429/503, or cuts the connection) and logs it; this module only
// decides, so both servers inject the same faults for the same seed.
//
//   FAULTS=latency=200~100,429=0.1,503=0.05,drop=0.02,seed=7,ops=getVolume|listVolumes
//
// - latency=<ms> or <ms>~<jitter>: every chosen request waits ms ± jitter (uniform), at least 0.
// - 429=, 503=, drop=: shares (0..1, summing to at most 1) of chosen requests answered 429 (with
//   Retry-After), 503, or cut off mid-answer (headers sent, then the connection closed).
// - seed=<n>: the draws (default 1). A request's draws depend only on the seed, its operation and
//   how many requests of that operation came before it, so a run repeats whatever else runs.
// - ops=a|b: only these operations (default: all).
//
// A request may ask for one fault with the header `X-Fault: 429`, `503`, `drop` or
// `latency=<ms>`. Every injected answer carries `X-Fault: <kinds>`.

export const FAULT_HEADER = 'x-fault';
/** The Retry-After (seconds) of an injected 429. */
export const FAULT_RETRY_AFTER_SECONDS = 1;
const MAX_LATENCY_MS = 60_000;

export class FaultSettingError extends Error {
  constructor(message) {
    super(message);
    this.name = 'FaultSettingError';
  }
}

const fail = (message) => { throw new FaultSettingError(`FAULTS: ${message}`); };

function share(key, raw) {
  if (!/^(0(\.\d+)?|1(\.0+)?|\.\d+)$/.test(raw)) fail(`${key}=${raw}: the share must be a number from 0 to 1 (e.g. ${key}=0.1)`);
  return Number(raw);
}

function milliseconds(key, raw) {
  if (!/^\d+$/.test(raw) || Number(raw) > MAX_LATENCY_MS) fail(`${key}: "${raw}" must be whole milliseconds from 0 to ${MAX_LATENCY_MS}`);
  return Number(raw);
}

/** `latency=100` or `latency=100~50` → { ms, jitter }. */
function latency(raw) {
  const [ms, jitter = '0', extra] = raw.split('~');
  if (extra !== undefined) fail(`latency=${raw}: write latency=<ms> or latency=<ms>~<jitter ms>`);
  return { ms: milliseconds('latency', ms), jitter: milliseconds('latency jitter', jitter) };
}

/**
 * The FAULTS setting parsed; null when it is unset or empty (no fault injection). Throws a
 * FaultSettingError naming the item and the rule it breaks.
 * @param {string | undefined | null} text
 * @param {{ operations?: Iterable<string> }} [known] operationIds that `ops=` may name
 */
export function parseFaults(text, known = {}) {
  if (text === undefined || text === null || !String(text).trim()) return null;
  const config = { latency: null, shares: { 429: 0, 503: 0, drop: 0 }, seed: 1, ops: null, source: String(text).trim() };
  const seen = new Set();
  const operations = known.operations ? new Set(known.operations) : null;
  for (const item of String(text).split(',').map((part) => part.trim()).filter(Boolean)) {
    const eq = item.indexOf('=');
    if (eq < 1) fail(`"${item}" is not key=value (keys: latency, 429, 503, drop, seed, ops)`);
    const key = item.slice(0, eq).trim();
    const value = item.slice(eq + 1).trim();
    if (seen.has(key)) fail(`${key} is given twice`);
    seen.add(key);
    switch (key) {
      case 'latency': config.latency = latency(value); break;
      case '429': case '503': case 'drop': config.shares[key] = share(key, value); break;
      case 'seed':
        if (!/^\d+$/.test(value) || Number(value) > 2 ** 32 - 1) fail(`seed=${value}: the seed must be an integer from 0 to ${2 ** 32 - 1}`);
        config.seed = Number(value);
        break;
      case 'ops': {
        const names = value.split('|').map((name) => name.trim()).filter(Boolean);
        if (!names.length) fail('ops= names no operation (write ops=getVolume|listVolumes)');
        const unknown = operations ? names.filter((name) => !operations.has(name)) : [];
        if (unknown.length) fail(`ops: ${unknown.join(', ')} ${unknown.length === 1 ? 'is not an operationId' : 'are not operationIds'} of the API`);
        config.ops = new Set(names);
        break;
      }
      default: fail(`unknown key "${key}" (keys: latency, 429, 503, drop, seed, ops)`);
    }
  }
  const total = config.shares[429] + config.shares[503] + config.shares.drop;
  if (total > 1 + 1e-9) fail(`the shares of 429, 503 and drop add up to ${total}, more than 1`);
  return config;
}

/** The fault a request asks for with `X-Fault`; throws a FaultSettingError for a bad value. */
export function parseFaultRequest(value) {
  if (value === undefined || value === null || value === '') return null;
  const text = String(value).trim();
  if (text === '429' || text === '503' || text === 'drop') return { fault: text, delayMs: 0 };
  if (text.startsWith('latency=')) {
    const { ms, jitter } = latency(text.slice('latency='.length));
    if (jitter) fail(`X-Fault: ${text}: one request waits a fixed time (latency=<ms>)`);
    return { fault: null, delayMs: ms };
  }
  throw new FaultSettingError(`X-Fault: "${text}" is not a fault (429, 503, drop or latency=<ms>)`);
}

// Draws: one small PRNG (mulberry32) per operation, seeded from the seed and the operationId, so
// an operation's n-th request gets the same draws whatever other operations are asked meanwhile.
function hashString(text, h) {
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
function mulberry32(state) {
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/**
 * A decision maker over a parsed setting (or null: only the per-request header is honoured when
 * `honourHeader` says so). `decide` returns null (no fault) or
 * `{ delayMs, fault: '429' | '503' | 'drop' | null, kinds: string[], requested: boolean }`.
 * @param {ReturnType<typeof parseFaults>} config
 * @param {{ honourHeader?: boolean }} [options] honour `X-Fault` even without a setting
 */
export function createFaultInjector(config, { honourHeader = Boolean(config) } = {}) {
  const streams = new Map();
  const streamOf = (operationId) => {
    let next = streams.get(operationId);
    if (!next) {
      next = mulberry32(hashString(operationId, hashString(String(config.seed), 0x811c9dc5)));
      streams.set(operationId, next);
    }
    return next;
  };
  return {
    enabled: Boolean(config),
    config,
    /** @param {{ operationId: string, header?: string | string[] }} request */
    decide({ operationId, header }) {
      const asked = honourHeader ? parseFaultRequest(Array.isArray(header) ? header[0] : header) : null;
      if (asked) return { ...asked, kinds: [...(asked.delayMs ? ['latency'] : []), ...(asked.fault ? [asked.fault] : [])], requested: true };
      if (!config || (config.ops && !config.ops.has(operationId))) return null;
      // Two draws per request whatever the setting, so each request's draws stay in step.
      const next = streamOf(operationId);
      const r = next();
      const spread = next();
      let delayMs = 0;
      if (config.latency) {
        const { ms, jitter } = config.latency;
        delayMs = Math.max(0, Math.round(ms + (spread * 2 - 1) * jitter));
      }
      const { shares } = config;
      const fault = r < shares[429] ? '429' : r < shares[429] + shares[503] ? '503' : r < shares[429] + shares[503] + shares.drop ? 'drop' : null;
      if (!fault && !delayMs) return null;
      return { delayMs, fault, kinds: [...(delayMs ? ['latency'] : []), ...(fault ? [fault] : [])], requested: false };
    },
  };
}

/** The headers of an injected answer: `X-Fault`, and `Retry-After` on a 429. */
export function faultHeaders(decision) {
  return { [FAULT_HEADER]: decision.kinds.join(', '), ...(decision.fault === '429' ? { 'retry-after': String(FAULT_RETRY_AFTER_SECONDS) } : {}) };
}

/**
 * The answer a `drop` fault cuts off: its status and headers promise a whole JSON body of
 * `content-length` bytes, and only `partialBody` is sent before the connection is closed, so the
 * client meets a connection cut mid-answer.
 * @param {{ kinds: string[], fault: string | null }} decision
 * @returns {{ status: number, headers: Record<string, string>, partialBody: string }}
 */
export function droppedAnswer(decision) {
  return {
    status: 200,
    headers: { ...faultHeaders(decision), 'content-type': 'application/json', 'content-length': '4096' },
    partialBody: '{"errors":[{"reason":"cut off',
  };
}

/** The ErrorResponse body of an injected 429 or 503. */
export function faultBody(decision) {
  const reason = decision.fault === '429'
    ? `Too many requests (an injected fault): retry after ${FAULT_RETRY_AFTER_SECONDS} s`
    : 'The service is unavailable (an injected fault)';
  return { errors: [{ reason }] };
}

/** One log line for an injected fault. */
export function describeFault(decision, { operationId, method, url }) {
  const what = decision.kinds.map((kind) => (kind === 'latency' ? `latency ${decision.delayMs} ms` : kind)).join(' + ');
  return `fault injected${decision.requested ? ' (asked by X-Fault)' : ''}: ${what} on ${operationId} (${method} ${url})`;
}

/** A one-line summary of a setting, for start-up banners. */
export function summarizeFaults(config) {
  if (!config) return 'off';
  const parts = [];
  if (config.latency) parts.push(`latency ${config.latency.ms}${config.latency.jitter ? `±${config.latency.jitter}` : ''} ms`);
  for (const kind of ['429', '503', 'drop']) if (config.shares[kind]) parts.push(`${kind} ${config.shares[kind]}`);
  parts.push(`seed ${config.seed}`);
  parts.push(config.ops ? `ops ${[...config.ops].join('|')}` : 'all operations');
  return parts.join(', ');
}
