// The command table: one entry per operation of the bundle, everything the command line needs to
// parse, check, send and print without reading the bundle itself (which it loads only to validate).
import { filterSchemaOf, filterSpecOf, isFilterParameter } from '@cloudapi/spec/filters';
import { walkProperties } from '@cloudapi/spec/schema-walk';
import { bodiesOf, mediaExamples, operations, parameterExamples } from '@cloudapi/spec/walk';
import { commandWords, flagName } from './naming.mjs';
import { descriptionOf, isReadOnly, resolve, shapeOf } from './schema-shape.mjs';

/** Flags the command line gives every command; a field with one of these names is an error. */
export const RESERVED_FLAGS = ['json', 'format', 'all', 'filter', 'data', 'upload-file', 'debug', 'profile', 'help', 'base-url', 'token'];
// The answer field of an upload (the requirements' image upload): the URL the data goes to with a PUT.
const UPLOAD_URL_FIELD = 'upload_to';
const MAX_COLUMNS = 6;
const MAX_DEPTH = 4;

/** A body's fields as flags: nested objects become dotted flags; lists of objects only go in --data. */
function fieldsOf(document, schema, prefix = [], depth = 0) {
  const shape = shapeOf(document, schema);
  if (shape.kind !== 'object' || depth > MAX_DEPTH) return [];
  const fields = [];
  for (const [name, sub] of Object.entries(shape.properties)) {
    if (sub === false || isReadOnly(document, sub)) continue;
    const path = [...prefix, name];
    const own = shapeOf(document, sub);
    const base = { path, flag: path.map(flagName).join('.'), description: firstLine(descriptionOf(document, sub)), required: depth === 0 && shape.required.includes(name) };
    if (own.kind === 'object') fields.push(...fieldsOf(document, sub, path, depth + 1));
    else if (own.kind === 'scalar') fields.push({ ...base, type: own.type, nullable: own.nullable, ...(own.enum ? { enum: own.enum } : {}), ...(own.file ? { file: true } : {}) });
    else if (own.kind === 'array') fields.push({ ...base, type: own.item.type, array: true, nullable: own.nullable, ...(own.item.enum ? { enum: own.item.enum } : {}) });
  }
  return fields;
}

const firstLine = (text) => (text ?? '').trim().split(/\n\s*\n/)[0].replace(/\s+/g, ' ');

/** Markdown's wrapped lines joined, so the terminal wraps them: paragraphs and list items stay apart. */
export const reflow = (text) => (text ?? '').trim().split('\n').reduce((lines, line) => {
  const continues = lines.length && line.trim() && lines.at(-1).trim() && !/^\s*([-*]|\d+\.)\s/.test(line);
  if (continues) lines[lines.length - 1] += ` ${line.trim()}`;
  else lines.push(line.trimEnd());
  return lines;
}, []).join('\n');

/** The main fields of a resource for the table view: its id, then its first scalar fields. */
function columnsOf(document, schema) {
  const shape = shapeOf(document, schema);
  if (shape.kind !== 'object') return [];
  const scalars = Object.entries(shape.properties).filter(([, sub]) => sub !== false && resolve(document, sub).writeOnly !== true && shapeOf(document, sub).kind === 'scalar').map(([name]) => name);
  return [...scalars.filter((name) => name === 'id'), ...scalars.filter((name) => name !== 'id')].slice(0, MAX_COLUMNS);
}

/** Whether the success body holds items (`{data: [...]}`), whether it is a page of a list (`page` too), and the columns. */
function successOf(document, op) {
  const success = bodiesOf(document, op).find((body) => body.kind === 'response' && /^2/.test(body.status) && body.mediaType === 'application/json');
  if (!success) return { columns: [], list: false, items: false, upload: false };
  const schema = success.media.schema;
  const shape = shapeOf(document, schema);
  const data = shape.kind === 'object' && shape.properties.data && resolve(document, shape.properties.data);
  const items = Boolean(data && (data.type === 'array' || data.items));
  const list = op.method === 'get' && items && 'page' in shape.properties;
  const item = items ? data.items : schema;
  // An answer that names where to PUT the data (`upload_to`, a URI) lets the command send a file there.
  const uploadUrl = shape.kind === 'object' && shape.properties[UPLOAD_URL_FIELD] && resolve(document, shape.properties[UPLOAD_URL_FIELD]);
  const upload = Boolean(uploadUrl && uploadUrl.format === 'uri' && (shape.required ?? []).includes(UPLOAD_URL_FIELD));
  return { list, items, columns: columnsOf(document, item), upload };
}

/** The names of the fields any request body marks write-only (secrets: `--debug` hides their values). */
function writeOnlyNames(document, all) {
  const names = new Set();
  for (const op of all) {
    for (const body of bodiesOf(document, op).filter((b) => b.kind === 'request')) {
      walkProperties(body.media.schema, (node) => resolve(document, node), (name, raw, property) => {
        if (raw?.writeOnly === true || property?.writeOnly === true) names.add(name);
      });
    }
  }
  return [...names].sort();
}

/** `cloudapi volumes create --label my-volume --region us-east --size 20`, from the spec's examples. */
function exampleOf(document, op, words, positionals, body) {
  const args = positionals.map((p) => {
    const value = parameterExamples(document, op.parameters.find((candidate) => candidate.in === 'path' && candidate.name === p.name))[0];
    return value === undefined ? `<${p.arg}>` : String(value);
  });
  const flags = [];
  const sample = body && bodiesOf(document, op).filter((b) => b.kind === 'request').flatMap((b) => mediaExamples(document, b.media))[0];
  if (sample && sample.value && typeof sample.value === 'object') {
    for (const field of body.fields) {
      const value = field.path.reduce((node, key) => (node && typeof node === 'object' ? node[key] : undefined), sample.value);
      if (value === undefined || value === null || field.file) continue;
      if (field.type === 'boolean' && !field.array) flags.push(value ? `--${field.flag}` : `--no-${field.flag}`);
      else for (const item of [value].flat()) flags.push(`--${field.flag} ${quote(String(item))}`);
    }
  }
  return ['cloudapi', ...words, ...args, ...flags].join(' ');
}

const quote = (text) => (/^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`);

export function buildTable(document) {
  const all = [...operations(document)];
  const names = commandWords(all.map((op) => ({ operationId: op.operation.operationId, tag: op.operation.tags?.[0] ?? 'misc' })));
  const commands = all.map((op) => {
    const { operationId, summary, description } = op.operation;
    const words = names.get(operationId);
    const positionals = (op.path.match(/\{[^}]+\}/g) ?? []).map((token) => {
      const name = token.slice(1, -1);
      const parameter = op.parameters.find((p) => p.in === 'path' && p.name === name);
      const shape = shapeOf(document, parameter.schema);
      return { name, arg: flagName(name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)), description: firstLine(parameter.description), schemaPointer: `${parameter.pointer}/schema`, type: shape.kind === 'scalar' ? shape.type : 'string' };
    });
    const query = op.parameters.filter((p) => p.in === 'query').map((p) => {
      const shape = shapeOf(document, p.schema);
      return { name: p.name, flag: flagName(p.name), description: firstLine(p.description), required: Boolean(p.required), schemaPointer: `${p.pointer}/schema`,
        type: shape.kind === 'scalar' ? shape.type : shape.kind === 'array' ? shape.item.type : 'string', ...(shape.kind === 'array' ? { array: true } : {}), ...(shape.enum ? { enum: shape.enum } : {}) };
    });
    const request = bodiesOf(document, op).find((b) => b.kind === 'request');
    const body = request ? {
      mediaType: request.mediaType,
      required: Boolean(resolve(document, op.operation.requestBody).required),
      schemaPointer: request.schemaPointer,
      fields: fieldsOf(document, request.media.schema),
    } : null;
    const { list, items, columns, upload } = successOf(document, op);
    const filterHeader = op.parameters.find(isFilterParameter);
    // The fields X-Filter matches (the items' x-filterable marks), and the schema of its JSON
    // (the header's contentSchema), which the command checks before sending.
    const filterable = Object.keys(filterSpecOf(document, op.operation)?.fields ?? {});
    const filterSchemaPointer = filterHeader && filterSchemaOf(filterHeader)?.pointer;
    for (const flag of [...query.map((q) => q.flag), ...(body?.fields ?? []).map((f) => f.flag)]) {
      if (RESERVED_FLAGS.includes(flag)) throw new Error(`${operationId}: the field "${flag}" is also a flag of every command; the command line cannot tell them apart`);
    }
    return {
      operationId, words, method: op.method.toUpperCase(), path: op.path,
      summary: firstLine(summary) || operationId, description: reflow(description),
      positionals, query, body, list, items, columns,
      // List operations take X-Filter (another branch adds it to the spec); so does any operation declaring it.
      filter: Boolean(filterHeader) || list,
      filterable,
      ...(upload ? { upload: true } : {}),
      ...(filterSchemaPointer ? { filterSchemaPointer } : {}),
      example: exampleOf(document, op, words, positionals, body),
    };
  });
  // An area is listed with the first sentence of its tag's description.
  const areas = Object.fromEntries((document.tags ?? []).map((tag) => [tag.name.toLowerCase().replace(/\s+/g, '-'), firstLine(tag.description).split(/(?<=\.)\s/)[0] || tag.name]));
  return { version: document.info.version, baseUrl: document.servers?.[0]?.url ?? '', areas, writeOnly: writeOnlyNames(document, all), commands };
}
