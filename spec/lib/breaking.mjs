// Compares two bundles of the API and lists the changes that can break a client written against
// the first one. Each finding is { level, code, operation, operationId, where, message, pointer }:
//
//   level "breaking"  a client that worked before can now fail (an operation gone, a newly
//                     required field, a response field removed or made optional, a narrower type,
//                     a security alternative or a media type gone, the base path moved)
//   level "warning"   a client may misbehave (a response enum gained a value an exhaustive switch
//                     does not handle), or what is built from the bundle is renamed
//   level "info"      with `{ all: true }` only (the API changelog, lib/changelog.mjs): what
//                     changed without breaking anyone
//
// The codes and their levels are in breaking/codes.mjs; spec/README.md maps oasdiff's checks onto
// them. Schemas are compared as clients see them (breaking/schemas.mjs), security as the set of
// alternative requirements (breaking/security.mjs), media types exactly (breaking/operations.mjs).
//
// `pointer` is where the change is in the second bundle: the keyword or the `required` list that
// changed, or the operation; for something removed, the object that lost it. lib/sources.mjs turns
// it into the source file and line a designer edits.
import { basePathOf } from './bundle.mjs';
import { levelOf } from './breaking/codes.mjs';
import { compareParameters, compareRequestBody, compareResponses } from './breaking/operations.mjs';
import { schemaContext } from './breaking/schemas.mjs';
import { compareOperationSecurity, compareSecuritySchemes } from './breaking/security.mjs';
import { formatPointer } from './json-pointer.mjs';
import { operations } from './walk.mjs';

export { CODES } from './breaking/codes.mjs';

// An operation is its method and path template, whatever its path parameters are called.
const identity = (op) => `${op.method.toUpperCase()} ${op.path.replace(/\{[^}]+\}/g, '{}')}`;
const label = (op) => `${op.method.toUpperCase()} ${op.path}`;

/**
 * The findings of comparing `before` with `after`, and the operations added.
 * @param {any} before @param {any} after
 * @param {{ all?: boolean }} [options] `all`: also the changes that break nobody (level "info")
 * @returns {{ findings: Array<{ level: import('./breaking/codes.mjs').Level, code: string, operation: string, operationId: string, where: string, message: string, pointer: string | undefined }>, added: string[] }}
 */
export function compareDocuments(before, after, { all = false } = {}) {
  /** @type {ReturnType<typeof compareDocuments>['findings']} */
  const findings = [];
  const reporter = (operation, operationId) => (code, where, message, pointer) => {
    const level = levelOf(code);
    if (level !== 'info' || all) findings.push({ level, code, operation, operationId, where, message, pointer });
  };
  const schemas = schemaContext(before, after);
  const opsAfter = new Map([...operations(after)].map((op) => [identity(op), op]));
  const opsBefore = new Map([...operations(before)].map((op) => [identity(op), op]));
  for (const [id, a] of opsBefore) {
    const b = opsAfter.get(id);
    const report = reporter(label(b ?? a), a.operation.operationId);
    if (!b) {
      report('operation-removed', '', `${label(a)} (${a.operation.operationId}) was removed`, after.paths?.[a.path] ? formatPointer(['paths', a.path], { fragment: true }) : '#/paths');
      continue;
    }
    compareOperation({ before, after, schemas, report }, a, b);
  }
  const added = [...opsAfter.keys()].filter((id) => !opsBefore.has(id)).map((id) => label(opsAfter.get(id)));
  for (const id of opsAfter.keys()) {
    if (opsBefore.has(id)) continue;
    const op = opsAfter.get(id);
    reporter(label(op), op.operation.operationId)('operation-added', '', `${label(op)} (${op.operation.operationId}) was added`, op.pointer);
  }
  compareDocumentLevel(before, after, reporter);
  return { findings, added };
}

/** One operation present in both bundles. */
function compareOperation(ctx, a, b) {
  const { before, after, report } = ctx;
  const [opA, opB] = [a.operation, b.operation];
  if (opB.deprecated === true && opA.deprecated !== true) report('operation-deprecated', '', `${label(b)} (${opA.operationId}) is deprecated`, `${b.pointer}/deprecated`);
  if (opB.deprecated !== true && opA.deprecated === true) report('operation-reactivated', '', `${label(b)} (${opB.operationId}) is no longer deprecated`, b.pointer);
  if (opA.operationId !== opB.operationId) report('operation-id-changed', '', `operationId ${opA.operationId} is now ${opB.operationId}: generated clients and \`cloudapi\` commands are renamed`, `${b.pointer}/operationId`);
  const tagsA = opA.tags ?? [];
  const tagsB = opB.tags ?? [];
  for (const tag of tagsA) if (!tagsB.includes(tag)) report('operation-tag-removed', '', `tag ${tag} was removed (the operation moves in the docs and in \`cloudapi\`)`, opB.tags ? `${b.pointer}/tags` : b.pointer);
  tagsB.forEach((tag, i) => { if (!tagsA.includes(tag)) report('operation-tag-added', '', `tag ${tag} was added`, `${b.pointer}/tags/${i}`); });
  compareOperationSecurity({ before, after, opA, opB, pointer: b.pointer, report });
  const opCtx = { schemas: ctx.schemas, report };
  compareParameters(opCtx, a, b);
  compareRequestBody(opCtx, a, b);
  compareResponses(opCtx, a, b);
}

/** What is not one operation's: the server's base path, the security schemes, the schema names. */
function compareDocumentLevel(before, after, reporter) {
  const everyOperation = reporter('every operation', '');
  const [pathA, pathB] = [basePathOf(before), basePathOf(after)];
  if (pathA !== pathB) everyOperation('base-path-changed', 'servers', `the base path moved from "${pathA || '/'}" to "${pathB || '/'}": every operation has a new address`, '#/servers/0/url');
  const origin = (document) => {
    const url = document.servers?.[0]?.url;
    try { return url ? new URL(url).origin : ''; } catch { return url ?? ''; }
  };
  if (origin(before) !== origin(after)) everyOperation('server-url-changed', 'servers', `the server moved from ${origin(before) || 'none'} to ${origin(after) || 'none'}: clients that default to it follow`, '#/servers/0/url');
  const components = reporter('components', '');
  compareSecuritySchemes(before, after, components);
  const schemasB = after.components?.schemas ?? {};
  for (const name of Object.keys(before.components?.schemas ?? {})) {
    if (!(name in schemasB)) components('schema-removed', name, `schema ${name} was removed: code that imports its generated type no longer compiles`, '#/components/schemas');
  }
}

/**
 * The report of a comparison as lines of text, one change per line with the operations it
 * reaches (a shared schema reaches many), and an explicit line when nothing breaks.
 * @param {{ findings: object[], added: string[] }} result what compareDocuments() returned
 * @param {{ base: string, locate?: (pointer: string) => ({ file: string, line: number, column: number } | null) }} options
 *   `base` names what was compared with (`HEAD (1a2b3c4)`); `locate` turns a finding's pointer
 *   into its source file and line.
 */
export function formatChanges({ findings, added }, { base, locate }) {
  const groups = new Map();
  for (const f of findings) {
    const key = `${f.level}|${f.code}|${f.message}`;
    if (!groups.has(key)) groups.set(key, { ...f, operations: [] });
    groups.get(key).operations.push(f.operation);
  }
  const lines = [];
  const list = (title, level, mark) => {
    const items = [...groups.values()].filter((g) => g.level === level);
    if (!items.length) return 0;
    lines.push(title);
    for (const g of items) {
      const at = g.pointer && locate ? locate(g.pointer) : null;
      const ops = g.operations.length > 3 ? `${g.operations.slice(0, 3).join(', ')} and ${g.operations.length - 3} more` : g.operations.join(', ');
      lines.push(`  ${mark} ${at ? `${at.file}:${at.line}:${at.column}  ` : ''}${g.message}  [${g.code}]`, `      ${ops}`);
    }
    return items.length;
  };
  const breaking = list(`Breaking for clients written against ${base}:`, 'breaking', '✖');
  const warnings = list('May affect clients:', 'warning', '⚠');
  if (added.length) lines.push(`Added: ${added.slice(0, 8).join(', ')}${added.length > 8 ? ` and ${added.length - 8} more` : ''}`);
  if (!breaking && !warnings) lines.push(`✔ no breaking change compared with ${base}.`);
  return { lines, breaking, warnings };
}
