// Replays recorded traffic of the real service (go-vcr cassettes of the official Go client's
// integration tests) against the bundle: each request body against its request schema, each
// response body against the response schema of its status, with the service's names mapped to
// ours first. Every failure lands in one of four classes, decided by general rules rather than
// by file name, so the replay holds for recordings it has never seen:
//
// - `unknown endpoint`: the method and path match no operation of the bundle (or match one only
//   through a newer endpoint of the service that shares its prefix, see service-history.mjs);
// - `conflict with the requirements`: the body validates once fields and values that the service
//   added after the reference release are taken out (the known list in service-history.mjs, each
//   with its reason and the rule of the requirements it contradicts, `requirement`: most often the
//   row that lists every field of that request body); the requirements stand, and DECISIONS.md
//   section 14 lists each conflict;
// - `redaction`: the body validates once the recorder's masks (192.0.2.0, 1234::5678,
//   [SANITIZED]) are replaced by values of the same kind;
// - `our defect`: anything else: the spec refuses what the real service sent or answered.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import jsYaml from 'js-yaml';
import { createSchemaViews } from '../../lib/schema-views.mjs';
import { bodiesOf, operations } from '../../lib/walk.mjs';
import { NAME_MAP, NEWER, REDACTION } from './service-history.mjs';

export const CLASSES = ['our defect', 'conflict with the requirements', 'redaction', 'unknown endpoint'];

/** Every entry of the service's history that explains a body: each must name the rule it contradicts. */
export const HISTORY_ENTRIES = [...NEWER.fields, ...NEWER.bodies, ...NEWER.values];

/** Every interaction of every cassette in `dir`: { file, index, method, url, requestBody, status, responseBody }. */
export function loadCassettes(dir) {
  const files = readdirSync(dir).filter((name) => /\.ya?ml$/.test(name)).sort();
  if (files.length === 0) throw new Error(`${dir} holds no cassette (*.yaml)`);
  return files.flatMap((file) => {
    // js-yaml, not `yaml`: go-vcr writes multi-line quoted scalars indented no deeper than
    // their key, which the strict parser refuses and the real service's recordings are full of.
    const cassette = jsYaml.load(readFileSync(path.join(dir, file), 'utf8'));
    return (cassette.interactions || []).map((interaction, index) => ({
      file,
      index,
      method: String(interaction.request.method).toLowerCase(),
      url: interaction.request.url,
      requestBody: interaction.request.body || '',
      status: Number(interaction.response.code),
      responseBody: interaction.response.body || '',
    }));
  });
}

function parseJson(text) {
  if (typeof text !== 'string' || text.trim() === '') return undefined;
  try { return JSON.parse(text); } catch { return text; }
}

/** The path of a recorded URL in our names: `/v4beta/linode/instances/1` → `/compute/instances/1`. */
export function ourPath(url) {
  let pathname = new URL(url).pathname.replace(/^\/v4(beta)?(?=\/)/, '');
  for (const [theirs, ours] of NAME_MAP.paths) {
    if (pathname === theirs || pathname.startsWith(`${theirs}/`)) pathname = ours + pathname.slice(theirs.length);
  }
  return pathname;
}

/** A body in our names: keys renamed at any depth, `linode/…` ids and tagged-object types mapped. */
export function ourBody(value, key = null) {
  if (Array.isArray(value)) return value.map((item) => ourBody(item, key));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => {
      const name = NAME_MAP.keys[k] || k;
      return [name, ourBody(v, name)];
    }));
  }
  if (typeof value === 'string') {
    for (const [theirs, ours] of NAME_MAP.idPrefixes) if (value.startsWith(theirs)) return ours + value.slice(theirs.length);
    if (key === 'type' && NAME_MAP.types[value]) return NAME_MAP.types[value];
  }
  return value;
}

// Deep copy with the fields and values the service added after 4.115.0 taken out. Returns
// { value, changed, whole, reasons }: `whole` when the body itself is of a newer kind.
function withoutNewer(body, operationId, kind) {
  const reasons = new Set();
  // Each entry that matched: those naming a `requirement` contradict what the requirements say.
  const matched = new Set();
  let whole = false;
  const applies = (entry) => (!entry.operations || entry.operations.includes(operationId)) && (!entry.kind || entry.kind === kind);
  const fields = NEWER.fields.filter(applies);
  const values = NEWER.values.filter(applies);
  const markers = fields.filter((entry) => entry.marks === 'object');
  const matchesName = (entry, name) => (typeof entry.name === 'string' ? entry.name === name : entry.name.test(name));
  // An object of a newer kind: it holds a newer value, or a field that marks it.
  const isNewerObject = (object, at) => {
    const value = values.find((entry) => Object.hasOwn(object, entry.field) && entry.values.includes(object[entry.field]));
    if (value) return { field: value.field, reason: value.reason, entry: value };
    const marker = markers.find((entry) => Object.keys(object).some((name) => matchesName(entry, name) && object[name] != null) && (!entry.under || entry.under.test(at)));
    return marker ? { field: typeof marker.name === 'string' ? marker.name : String(marker.name), reason: marker.reason, entry: marker } : null;
  };
  const visit = (node, at) => {
    if (Array.isArray(node)) {
      const kept = [];
      node.forEach((item, i) => {
        const hit = item && typeof item === 'object' && !Array.isArray(item) && isNewerObject(item, `${at}/${i}`);
        if (hit) { reasons.add(`${at}/${i}/${hit.field}: ${hit.reason}`); matched.add(hit.entry); }
        else kept.push(visit(item, `${at}/${i}`));
      });
      return kept;
    }
    if (!node || typeof node !== 'object') return node;
    const out = {};
    for (const [name, child] of Object.entries(node)) {
      const hit = fields.find((entry) => !entry.marks && matchesName(entry, name) && (!entry.under || entry.under.test(at)));
      if (hit) { reasons.add(`${at}/${name}: ${hit.reason}`); matched.add(hit); continue; }
      out[name] = visit(child, `${at}/${name}`);
    }
    return out;
  };
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const hit = isNewerObject(body, '');
    if (hit) { whole = true; reasons.add(`/${hit.field}: ${hit.reason}`); matched.add(hit.entry); }
    for (const rule of NEWER.bodies.filter(applies)) {
      if (rule.test(body)) { whole = true; reasons.add(rule.reason); matched.add(rule); }
    }
  }
  const value = visit(body, '');
  const requirements = [...new Set([...matched].map((entry) => entry.requirement))];
  return { value, changed: reasons.size > 0, whole, reasons: [...reasons], requirements };
}

// The body with every recorder mask replaced by a stand-in of the same kind, one variant per
// stand-in; empty when the body holds no mask.
function unredacted(body) {
  const text = JSON.stringify(body);
  const masks = REDACTION.filter((r) => r.pattern.test(text));
  if (masks.length === 0) return [];
  const variants = [];
  const width = Math.max(...masks.map((m) => m.standIns.length));
  for (let i = 0; i < width; i++) {
    let replaced = text;
    for (const mask of masks) replaced = replaced.replace(new RegExp(mask.pattern.source, 'g'), mask.standIns[Math.min(i, mask.standIns.length - 1)]);
    variants.push(JSON.parse(replaced));
  }
  return variants;
}

function matcher(document) {
  const ops = [...operations(document)].map((op) => ({ ...op, segments: op.path.split('/').slice(1) }))
    // Literal segments win over parameters: /domains/import before /domains/{domainId}.
    .sort((a, b) => b.segments.filter((s) => !s.startsWith('{')).length - a.segments.filter((s) => !s.startsWith('{')).length);
  return (method, pathname) => {
    const segments = pathname.split('/').slice(1);
    return ops.find((op) => op.method === method && op.segments.length === segments.length
      && op.segments.every((s, i) => s.startsWith('{') || s === segments[i]));
  };
}

/**
 * Replays `interactions` against `document`. Returns { checks, failures, counts }: one check per
 * body compared, each failure { class, file, index, operationId, what, reasons }.
 */
export function replay(document, interactions) {
  const views = createSchemaViews(document);
  const find = matcher(document);
  const failures = [];
  let checks = 0;
  let skipped = 0;
  for (const it of interactions) {
    const where = { file: it.file, index: it.index, request: `${it.method.toUpperCase()} ${it.url}` };
    const pathname = ourPath(it.url);
    const shadow = NEWER.endpoints.find((e) => e.path.test(pathname) && (!e.method || e.method === it.method));
    const op = shadow ? null : find(it.method, pathname);
    if (!op) {
      failures.push({ ...where, class: 'unknown endpoint', what: `${it.method.toUpperCase()} ${pathname}`, reasons: shadow ? [shadow.reason] : ['no operation of the bundle has this method and path'] });
      continue;
    }
    const operationId = op.operation.operationId;
    const bodies = bodiesOf(document, op);
    const compare = (kind, schemaPointer, raw, what) => {
      checks++;
      const body = ourBody(raw);
      const view = kind === 'request' ? 'request' : 'response';
      const valid = (value) => views.validate(view, schemaPointer, value).valid;
      if (valid(body)) return;
      const fail = (klass, reasons) => failures.push({ ...where, class: klass, operationId, what, reasons });
      const newer = withoutNewer(body, operationId, kind);
      // What the service does against a rule the requirements state is a conflict, not a gap: the
      // requirements stand (DECISIONS.md section 14 lists each).
      const conflict = 'conflict with the requirements';
      if (newer.whole || (newer.changed && valid(newer.value))) return fail(conflict, newer.requirements);
      if (unredacted(body).some(valid)) return fail('redaction', REDACTION.filter((r) => r.pattern.test(JSON.stringify(body))).map((r) => r.reason));
      if (newer.changed && unredacted(newer.value).some(valid)) return fail(conflict, [...newer.requirements, 'and a recorder mask']);
      const rest = newer.changed ? newer.value : body;
      fail('our defect', views.validate(view, schemaPointer, rest).errors.map((e) => e.message));
    };

    // A request counts only when the service took it (2xx): one it refused says nothing about
    // what it accepts, and our schema may well refuse it too.
    const sent = it.status >= 200 && it.status < 300 ? parseJson(it.requestBody) : undefined;
    const requestBody = bodies.find((b) => b.kind === 'request' && b.mediaType === 'application/json');
    if (sent !== undefined && requestBody) compare('request', requestBody.schemaPointer, sent, 'request body');
    else if (sent !== undefined && !requestBody && !(bodies.some((b) => b.kind === 'request')) && !isEmptyObject(sent)) {
      checks++;
      failures.push({ ...where, class: 'our defect', operationId, what: 'request body', reasons: ['the operation takes no request body, the service took one'] });
    }

    // A 5xx is never part of the contract (DECISIONS.md section 2): nothing to compare.
    if (it.status >= 500) { skipped++; continue; }
    const answered = parseJson(it.responseBody);
    const declared = bodies.find((b) => b.kind === 'response' && b.status === String(it.status));
    if (!declared) {
      checks++;
      failures.push({ ...where, class: 'our defect', operationId, what: `response ${it.status}`, reasons: [`status ${it.status} is not declared by ${operationId}`] });
    } else if (answered !== undefined) {
      compare('response', declared.schemaPointer, answered, `response ${it.status}`);
    }
  }
  const counts = Object.fromEntries(CLASSES.map((c) => [c, failures.filter((f) => f.class === c).length]));
  return { interactions: interactions.length, checks, skipped, failures, counts };
}

function isEmptyObject(value) {
  return value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0;
}
