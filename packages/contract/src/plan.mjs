// What the kit sends for each operation: the order of operations, security, parameter values
// from the spec's examples, request bodies from its examples, and ids taken from create answers.
import { bodiesOf, mediaExamples, operations, parameterExamples as examplesOfParameter } from '@cloudapi/spec/walk';
import { pointerGet } from '@cloudapi/spec/schema-views';
import { isJsonMedia } from './http.mjs';
import { sampleValue } from './values.mjs';

const DESTRUCTIVE_VERB = /^(cancel|delete|remove|revoke|purge|destroy)/i;

/** `public` (no token needed), `optional` (a token widens the answer) or `secured` (401 without). */
export function securityOf(document, operation) {
  const requirements = operation.security ?? document.security ?? [];
  if (!requirements.length) return 'public';
  return requirements.some((r) => Object.keys(r).length === 0) ? 'optional' : 'secured';
}

function paramCount(path) {
  return (path.match(/\{[^}]+\}/g) || []).length;
}

/**
 * The operations of the document in the order a stateful implementation needs: creates before
 * reads, reads before changes and actions, parents before children; deletes and destructive
 * actions (operationIds starting with cancel, delete, remove...) last, children first.
 */
export function orderedOperations(document) {
  const all = [...operations(document)].map((op, index) => ({ ...op, index }));
  const paths = Object.keys(document.paths || {});
  const isCollection = (path) => paths.some((p) => p.startsWith(`${path}/{`));
  const rank = (op) => {
    const destructive = op.method === 'delete' || (op.method === 'post' && DESTRUCTIVE_VERB.test(op.operation.operationId || ''));
    // Deeper paths first, so a child (a bucket's certificate) goes before its parent (the bucket).
    if (destructive) return [1, -op.path.split('/').length, 0, op.index];
    const kind = op.method === 'post' && isCollection(op.path) ? 0 : op.method === 'get' ? 1 : op.method === 'post' ? 3 : 2;
    return [0, paramCount(op.path), kind, op.index];
  };
  const keyed = all.map((op) => ({ op, key: rank(op) }));
  keyed.sort((a, b) => {
    for (let i = 0; i < a.key.length; i++) if (a.key[i] !== b.key[i]) return a.key[i] - b.key[i];
    return 0;
  });
  return keyed.map(({ op }) => ({ ...op, creates: op.method === 'post' && isCollection(op.path) }));
}

/** The example values of a parameter, best first: those the spec gives, then one built from its schema. */
export function parameterExamples(document, parameter, resolve) {
  const values = examplesOfParameter(document, parameter);
  const built = sampleValue(parameter.schema || {}, resolve);
  return built === undefined ? values : [...values, built];
}

/** The request body the kit sends: a JSON media type if there is one, with its examples. */
export function requestBodyOf(document, op, resolve) {
  const bodies = bodiesOf(document, op).filter((b) => b.kind === 'request');
  if (!bodies.length) return null;
  const body = bodies.find((b) => isJsonMedia(b.mediaType)) || bodies[0];
  const schema = resolve(pointerGet(document, body.schemaPointer)) || {};
  let examples = mediaExamples(document, body.media);
  if (!examples.length) {
    const value = sampleValue(schema, resolve);
    if (value !== undefined) examples = [{ name: 'built from the schema', value }];
  }
  const binaryFields = new Set(Object.entries(schema.properties || {})
    .filter(([, p]) => { const s = resolve(p) || {}; return s.format === 'binary' || s.contentMediaType !== undefined || s.contentEncoding !== undefined; })
    .map(([name]) => name));
  const required = Boolean(pointerGet(document, body.schemaPointer.replace(/\/content\/[^/]+\/schema$/, ''))?.required);
  return { mediaType: body.mediaType, schemaPointer: body.schemaPointer, examples, binaryFields, encoding: body.media.encoding, required };
}

/**
 * Path ids from earlier create answers: for `{volumeId}` in `/volumes/{volumeId}/attach`, the
 * `volumeId` or `id` field of what `POST /volumes` answered, when it fits the parameter's schema
 * (as given, or as a string where the path types the id as one).
 */
export function idFromCreated(created, path, parameter, fits) {
  const marker = `/{${parameter.name}}`;
  const at = path.indexOf(marker);
  if (at < 0) return undefined;
  const body = created.get(path.slice(0, at));
  if (!body || typeof body !== 'object') return undefined;
  for (const candidate of [body[parameter.name], body.id, body.id === undefined ? undefined : String(body.id)]) {
    if (candidate !== undefined && fits(candidate)) return candidate;
  }
  return undefined;
}

export const schemaPointerOfParameter = (parameter) => `${parameter.pointer}/schema`;
