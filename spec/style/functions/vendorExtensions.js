// Vendor extensions are named once for the whole API (spec/DECISIONS.md, "Vendor extensions").
// This rule rejects unknown `x-` names, extensions in the wrong place and malformed values, so a
// misspelt `x-acount-grants` cannot silently drop a grant from the docs and the clients.
const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);
// Keys whose values are data (examples, defaults, enums): an `x-` key inside them is not an extension.
const DATA_KEYS = new Set(['example', 'examples', 'default', 'const', 'enum']);

// Top-level objects that may hold extensions of their own.
const ROOT_PLACES = new Map([['info', 'info'], ['paths', 'paths'], ['components', 'components']]);

// Where a child lands, given where its parent is and the child's key.
function childPlace(place, key) {
  if (place === 'data' || DATA_KEYS.has(key)) return 'data';
  if (place === 'root') return ROOT_PLACES.get(key) ?? 'other';
  if (place === 'paths') return 'path item';
  if (place === 'path item') return METHODS.has(key) ? 'operation' : 'other';
  if (place === 'properties') return 'property';
  if (key === 'properties') return 'properties';
  return 'other';
}

function problemWith(name, value, place, registry) {
  const rule = registry[name];
  if (!rule) {
    return `Unknown vendor extension "${name}": use one of ${Object.keys(registry).join(', ')} (see spec/DECISIONS.md), ` +
      'or register a new one in house-vendor-extensions in spec/.spectral.yaml.';
  }
  if (!rule.on.includes(place)) return `"${name}" belongs on ${rule.on.join(' or ')}, not on ${place === 'other' ? 'this object' : `a ${place}`}.`;
  if (rule.value === 'true' && value !== true) return `"${name}" takes the value true; omit it otherwise.`;
  if (rule.value === 'object' && (!value || typeof value !== 'object' || Array.isArray(value))) return `"${name}" takes an object.`;
  if (rule.value === 'list') {
    if (!Array.isArray(value) || value.length === 0) return `"${name}" takes a non-empty list.`;
    if (rule.pattern) {
      const pattern = new RegExp(rule.pattern);
      const bad = value.filter((v) => typeof v !== 'string' || !pattern.test(v));
      if (bad.length) return `"${name}" has invalid entries ${JSON.stringify(bad)}: each must match ${rule.pattern}.`;
    }
    if (new Set(value.map((v) => JSON.stringify(v))).size !== value.length) return `"${name}" lists an entry twice.`;
  }
  return null;
}

export default function vendorExtensions(root, options) {
  const results = [];
  const seen = new Set();
  const visit = (node, path, place) => {
    if (!node || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    const entries = Array.isArray(node) ? node.map((v, i) => [i, v]) : Object.entries(node);
    for (const [key, value] of entries) {
      if (place !== 'data' && typeof key === 'string' && key.startsWith('x-')) {
        const problem = problemWith(key, value, place, options.extensions);
        if (problem) results.push({ message: problem, path: [...path, key] });
        continue;
      }
      visit(value, [...path, key], Array.isArray(node) ? (place === 'data' ? 'data' : 'other') : childPlace(place, key));
    }
  };
  visit(root, [], 'root');
  return results;
}
