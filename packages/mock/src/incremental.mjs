// What a rewritten mock document changes, so that a reload re-reads only that. Prism turns a
// document into its operations by dereferencing every schema of it: most of a second on the real
// spec, where a designer's save changes one or two path items. A reload (worker.mjs) asks Prism
// for the operations of the path items that changed, with only the components they reach, and
// keeps the others.
import { parsePointer } from '@cloudapi/spec/json-pointer';

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** A reference's tokens; none for a malformed one, which bundling would have refused anyway. */
function componentTokens(ref) {
  try {
    return parsePointer(ref);
  } catch {
    return [];
  }
}

/** The `#/components/<kind>/<name>` references anywhere in `value`, as `kind/name` (the name unescaped). */
function componentRefs(value, found = new Set()) {
  if (Array.isArray(value)) {
    for (const item of value) componentRefs(item, found);
  } else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string') {
        const tokens = inner.startsWith('#/components/') ? componentTokens(inner) : [];
        if (tokens.length === 3) found.add(`${tokens[1]}/${tokens[2]}`);
      } else {
        componentRefs(inner, found);
      }
    }
  }
  return found;
}

/** Every component `value` reaches, directly or through other components. */
function reachedComponents(document, value) {
  const reached = new Set();
  const queue = [...componentRefs(value)];
  while (queue.length) {
    const key = queue.shift();
    if (reached.has(key)) continue;
    reached.add(key);
    const slash = key.indexOf('/'); // a kind has no slash; a name may
    const [kind, name] = [key.slice(0, slash), key.slice(slash + 1)];
    for (const next of componentRefs(document.components?.[kind]?.[name])) if (!reached.has(next)) queue.push(next);
  }
  return reached;
}

/**
 * The path items of `after` whose operations differ from those of `before`: the ones edited,
 * added or removed, and the ones that reach a component that changed. `{ all: true }` when
 * something else changed (info, servers, security, the security schemes), which every operation
 * may depend on.
 * @returns {{ all: true } | { all: false, paths: Set<string> }}
 */
export function changedPaths(before, after) {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  for (const key of keys) if (key !== 'paths' && key !== 'components' && !same(before[key], after[key])) return { all: true };
  if (!same(before.components?.securitySchemes, after.components?.securitySchemes)) return { all: true };
  const changedComponents = new Set();
  for (const kind of new Set([...Object.keys(before.components ?? {}), ...Object.keys(after.components ?? {})])) {
    const [was, is] = [before.components?.[kind] ?? {}, after.components?.[kind] ?? {}];
    for (const name of new Set([...Object.keys(was), ...Object.keys(is)])) if (!same(was[name], is[name])) changedComponents.add(`${kind}/${name}`);
  }
  const paths = new Set();
  for (const key of new Set([...Object.keys(before.paths ?? {}), ...Object.keys(after.paths ?? {})])) {
    const [was, is] = [before.paths?.[key], after.paths?.[key]];
    if (!same(was, is) || (changedComponents.size && [...reachedComponents(after, is)].some((c) => changedComponents.has(c)))) paths.add(key);
  }
  return { all: false, paths };
}

/** `document` with only the path items `paths` (those it has) and the components they reach. */
export function partialDocument(document, paths) {
  const kept = Object.fromEntries(Object.entries(document.paths ?? {}).filter(([key]) => paths.has(key)));
  const components = { securitySchemes: document.components?.securitySchemes ?? {} };
  for (const key of reachedComponents(document, kept)) {
    const slash = key.indexOf('/'); // a kind has no slash; a name may
    const [kind, name] = [key.slice(0, slash), key.slice(slash + 1)];
    components[kind] ??= {};
    components[kind][name] = document.components[kind][name];
  }
  // Prism's dereferencing writes into the document it is given: a copy, not the caller's.
  return structuredClone({ ...document, paths: kept, components });
}

/** The operations of `previous` not under `paths`, with `fresh` (the operations of `paths` now). */
export function mergeOperations(previous, fresh, paths) {
  return [...previous.filter((op) => !paths.has(op.path)), ...fresh];
}
