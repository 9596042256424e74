// Finds where generated TypeScript lost a type: every request body, response body and parameter
// of the document is located in each generator's output, and its type is walked beside its
// schema (properties, array items, map values, union members). A spot typed `any` or `unknown`
// whose schema says more (a type, properties, items, an enum, a reference) is a finding; a spot
// whose schema says nothing (a free-form value) may be `unknown`.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { resolvePointer } from '@cloudapi/spec/json-pointer';
import { schemaParts } from '@cloudapi/spec/schema-walk';
import { bodiesOf, operations } from '@cloudapi/spec/walk';

const ANNOTATIONS = new Set(['description', 'title', 'examples', 'example', 'default', 'deprecated', 'readOnly', 'writeOnly', 'externalDocs', '$comment']);
const pascal = (id) => id[0].toUpperCase() + id.slice(1);
const camel = (name) => name.replace(/[_-]([a-z0-9])/g, (_, c) => c.toUpperCase());

function resolve(document, schema, depth = 0) {
  if (schema && typeof schema === 'object' && typeof schema.$ref === 'string' && depth < 32) return resolve(document, resolvePointer(document, schema.$ref), depth + 1);
  return schema;
}

/** Whether a schema says more about a value than "anything". */
export function saysMore(document, schema) {
  return members(document, schema).some((s) => s.type || s.properties || s.items || s.prefixItems || s.enum || 'const' in s);
}

// The subschemas that describe a property / array items / map values of `schema`, through $ref,
// allOf, oneOf and anyOf (the members a generator turns into intersections and unions).
const members = (document, schema) => schemaParts(schema, { resolve: (node) => resolve(document, node) });
const propertySchemas = (document, schema, name) => members(document, schema).map((m) => m.properties && m.properties[name]).filter(Boolean);
const itemSchemas = (document, schema) => members(document, schema).map((m) => m.items).filter((i) => i && typeof i === 'object');
const mapSchemas = (document, schema) => members(document, schema).map((m) => m.additionalProperties).filter((a) => a && typeof a === 'object');
const propertyNames = (document, schema) => [...new Set(members(document, schema).flatMap((m) => Object.keys(m.properties || {})))];

const ids = new WeakMap();
const schemaId = (schema) => {
  if (!schema || typeof schema !== 'object') return String(schema);
  if (!ids.has(schema)) ids.set(schema, ids.size + 1);
  return ids.get(schema);
};
const isLost = (type) => (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) !== 0;

/** Walks `type` beside `schemas` (several may describe one spot); reports lost spots under `where`. */
function walk(checker, document, type, schemas, where, findings, seen) {
  const key = `${type.id}@${schemas.map(schemaId).join('|')}`;
  if (seen.has(key) || where.split('.').length > 12) return;
  seen.add(key);
  const meaningful = schemas.some((s) => saysMore(document, s));
  if (isLost(type)) {
    if (meaningful) findings.push(`${where} is ${checker.typeToString(type)}`);
    return;
  }
  if (type.isUnion()) {
    for (const member of type.types) {
      if (isLost(member) && meaningful) findings.push(`${where} has an ${checker.typeToString(member)} member`);
    }
  }
  const nonNull = checker.getNonNullableType(type);
  if (checker.isArrayType(nonNull) || checker.isTupleType(nonNull)) {
    const [element] = checker.getTypeArguments(nonNull);
    const items = schemas.flatMap((s) => itemSchemas(document, s));
    if (element && items.length) walk(checker, document, element, items, `${where}[]`, findings, seen);
    return;
  }
  for (const name of [...new Set(schemas.flatMap((s) => propertyNames(document, s)))]) {
    const subs = schemas.flatMap((s) => propertySchemas(document, s, name));
    const parts = nonNull.isUnion() ? nonNull.types : [nonNull];
    for (const part of parts) {
      const symbol = checker.getPropertyOfType(part, name);
      if (!symbol) continue;
      walk(checker, document, checker.getTypeOfSymbol(symbol), subs, `${where}.${name}`, findings, seen);
    }
  }
  const maps = schemas.flatMap((s) => mapSchemas(document, s));
  const index = maps.length && checker.getIndexTypeOfType(nonNull, ts.IndexKind.String);
  if (index) walk(checker, document, index, maps, `${where}[key]`, findings, seen);
}

/** Every typed spot of the document: request bodies, responses and parameters, with their schema. */
export function slotsOf(document) {
  const slots = [];
  for (const op of operations(document)) {
    const id = op.operation.operationId;
    for (const body of bodiesOf(document, op)) {
      const schema = resolvePointer(document, body.schemaPointer);
      slots.push({ id, kind: body.kind, status: body.status, mediaType: body.mediaType, schema, label: `${id} ${body.kind === 'request' ? `request body (${body.mediaType})` : `response ${body.status}`}` });
    }
    for (const parameter of op.parameters) {
      if (parameter.in !== 'path' && parameter.in !== 'query') continue;
      slots.push({ id, kind: 'parameter', in: parameter.in, name: parameter.name, required: parameter.required, schema: parameter.schema, label: `${id} ${parameter.in} parameter ${parameter.name}` });
    }
  }
  return slots;
}

// How each generator's output names a slot: a TypeScript type expression over its module (`main`,
// the file among those it wrote that holds the types).
const PROBES = {
  'openapi-typescript': {
    main: (files) => files.find((f) => f.endsWith('openapi-typescript.ts')),
    header: (file) => `import type { operations } from ${JSON.stringify(file)};`,
    type: (slot) => {
      const op = `operations[${JSON.stringify(slot.id)}]`;
      if (slot.kind === 'request') return `NonNullable<${op}["requestBody"]>["content"][${JSON.stringify(slot.mediaType)}]`;
      if (slot.kind === 'response') return `${op}["responses"][${slot.status}]["content"][${JSON.stringify(slot.mediaType)}]`;
      return `NonNullable<${op}["parameters"][${JSON.stringify(slot.in)}]>[${JSON.stringify(slot.name)}]`;
    },
  },
  '@hey-api/openapi-ts': {
    main: (files) => files.find((f) => f.endsWith('types.gen.ts')),
    header: (file) => `import type * as G from ${JSON.stringify(file)};`,
    type: (slot) => {
      const base = `G.${pascal(slot.id)}`;
      if (slot.kind === 'request') return `NonNullable<${base}Data["body"]>`;
      if (slot.kind === 'response') return `${base}${/^2/.test(slot.status) ? 'Responses' : 'Errors'}[${slot.status}]`;
      return `NonNullable<${base}Data[${JSON.stringify(slot.in)}]>[${JSON.stringify(slot.name)}]`;
    },
  },
  oazapfts: {
    main: (files) => files.find((f) => f.endsWith('oazapfts.ts')),
    header: (file) => `import * as G from ${JSON.stringify(file)};`,
    // Path parameters and required query parameters are positional arguments named after the
    // parameter, optional query parameters are properties of one destructured argument, and the
    // body is the argument left over (before `opts`).
    type: (slot, signatureOf) => {
      const fn = `typeof G.${slot.id}`;
      if (slot.kind === 'response') return `Extract<Awaited<ReturnType<${fn}>>, { status: ${slot.status} }>["data"]`;
      const params = signatureOf(slot.id);
      if (!params) return null;
      if (slot.kind === 'request') {
        const index = params.findIndex((p) => p.kind === 'identifier' && p.name !== 'opts' && !p.isParameter);
        return index < 0 ? null : `Parameters<${fn}>[${index}]`;
      }
      const direct = params.findIndex((p) => p.kind === 'identifier' && p.name === camel(slot.name));
      if (direct >= 0) return `Parameters<${fn}>[${direct}]`;
      const grouped = params.findIndex((p) => p.kind === 'object' && p.names.includes(camel(slot.name)));
      return grouped < 0 ? null : `NonNullable<Parameters<${fn}>[${grouped}]>[${JSON.stringify(camel(slot.name))}]`;
    },
  },
};

/** The generators whose output the check reads slot by slot. */
export const PROBED = Object.keys(PROBES);

// oazapfts: the argument list of each generated function, read from its source.
function oazapftsSignatures(file, document) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const parameterNames = new Map([...operations(document)].map((op) => [op.operation.operationId, new Set(op.parameters.map((p) => camel(p.name)))]));
  const signatures = new Map();
  for (const statement of source.statements) {
    if (!ts.isFunctionDeclaration(statement) || !statement.name) continue;
    const known = parameterNames.get(statement.name.text) || new Set();
    signatures.set(statement.name.text, statement.parameters.map((p) => (ts.isObjectBindingPattern(p.name)
      ? { kind: 'object', names: p.name.elements.map((e) => e.name.getText(source)) }
      : { kind: 'identifier', name: p.name.getText(source), isParameter: known.has(p.name.getText(source)) })));
  }
  return (id) => signatures.get(id);
}

/** The compiler options every output is held to: strict, as a consumer's project would compile it. */
export const COMPILER_OPTIONS = Object.freeze({
  strict: true, noEmit: true, skipLibCheck: true, target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  // Kubb writes its imports with the `.ts` extension, as a bundler or Node's type stripping reads them.
  allowImportingTsExtensions: true,
});

// A probe file per generator that knows how its output names each slot; `file` is its module.
function writeProbe(document, slots, generator, file, dir) {
  const probe = PROBES[generator];
  const signatureOf = generator === 'oazapfts' ? oazapftsSignatures(file, document) : () => null;
  const relative = `./${path.relative(dir, file).replace(/\.ts$/, '').split(path.sep).join('/')}`;
  const lines = [probe.header(relative)];
  const placed = [];
  const missing = [];
  slots.forEach((slot, i) => {
    const expression = probe.type(slot, signatureOf);
    if (expression === null) { missing.push(slot.label); return; }
    lines.push(`export type Slot${i} = ${expression};`);
    placed.push([slot, `Slot${i}`]);
  });
  const probeFile = path.join(dir, `probe-${generator.replace(/\W/g, '-')}.ts`);
  writeFileSync(probeFile, `${lines.join('\n')}\n`);
  return { probeFile, placed, missing };
}

const where = (d) => {
  if (!d.file || d.start === undefined) return '';
  const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
  return `${path.basename(d.file.fileName)}:${line + 1}:${character + 1} `;
};

/**
 * A compiler host that keeps the files under node_modules (the standard library, zod, the
 * generators' runtimes) parsed from one program to the next: they do not change during a run, and
 * parsing the DOM library alone costs about two seconds of CPU per program.
 */
export function createCachingHost() {
  const host = ts.createCompilerHost(COMPILER_OPTIONS);
  const read = host.getSourceFile.bind(host);
  const cache = new Map();
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    if (!fileName.includes(`${path.sep}node_modules${path.sep}`)) return read(fileName, languageVersion, onError, shouldCreate);
    const key = `${fileName}\0${JSON.stringify(languageVersion)}`;
    if (!cache.has(key)) cache.set(key, read(fileName, languageVersion, onError, shouldCreate));
    return cache.get(key);
  };
  return host;
}

/**
 * Compiles one generator's output in a TypeScript program of its own (strict) and, when PROBES
 * knows the generator, walks the type of every body, answer and parameter beside its schema.
 * Returns { errors, checked, findings, missing, broken }: errors are the compiler's on the
 * generator's own files, findings lost types, missing the slots the output has no name for,
 * broken the probe lines that do not compile (the last four only for probed generators).
 * @param {any} document @param {string} generator @param {string[]} files @param {string} dir
 * @param {import('typescript').CompilerHost} [host] one from createCachingHost, to share parses
 */
export function checkOutput(document, generator, files, dir, host = undefined) {
  const main = PROBES[generator]?.main(files);
  const probe = main ? writeProbe(document, slotsOf(document), generator, main, dir) : null;
  const program = ts.createProgram(probe ? [...files, probe.probeFile] : files, COMPILER_OPTIONS, host);
  const errors = files.flatMap((file) => ts.getPreEmitDiagnostics(program, program.getSourceFile(file)))
    .map((d) => `${where(d)}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
  if (!probe) return { errors };
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(probe.probeFile);
  const broken = ts.getPreEmitDiagnostics(program, source).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  const aliases = new Map(source.statements.filter(ts.isTypeAliasDeclaration).map((d) => [d.name.text, d]));
  const findings = [];
  for (const [slot, alias] of probe.placed) {
    walk(checker, document, checker.getTypeAtLocation(aliases.get(alias).name), [slot.schema], slot.label, findings, new Set());
  }
  return { errors, checked: probe.placed.length, findings, missing: probe.missing, broken };
}
