// Security compared as the set of alternative requirements an operation accepts: a client that
// met one alternative before must meet one after. An alternative is met when every scheme it
// names is one the client had, with no scope the client lacked (`{}` is met by anyone). Also the
// security schemes of the components and their OAuth flows.
import { appendPointer } from '../json-pointer.mjs';

/** @typedef {Record<string, string[]>} Requirement */

const schemesOf = (requirement) => Object.keys(requirement).sort().join(' + ');
const meets = (had, needed) => Object.entries(needed).every(([scheme, scopes]) => had[scheme] && scopes.every((s) => had[scheme].includes(s)));

/**
 * The alternatives of an operation (its own `security`, else the document's) and its access.
 * @param {any} document @param {any} operation
 */
function accessOf(document, operation) {
  /** @type {Requirement[]} */
  const alternatives = operation.security ?? document.security ?? [];
  const kind = alternatives.length === 0 ? 'public' : alternatives.some((r) => Object.keys(r).length === 0) ? 'optional' : 'required';
  return { kind, alternatives: alternatives.filter((r) => Object.keys(r).length > 0) };
}

const ORDER = { public: 0, optional: 1, required: 2 };

/**
 * Reports through `report(code, where, message, pointer)` what an operation's security change
 * does to clients.
 * @param {{ before: any, after: any, opA: any, opB: any, pointer: string, report: Function }} options
 */
export function compareOperationSecurity({ before, after, opA, opB, pointer, report }) {
  const a = accessOf(before, opA);
  const b = accessOf(after, opB);
  const at = opB.security ? `${pointer}/security` : pointer;
  if (ORDER[b.kind] > ORDER[a.kind]) report('security-tightened', '', `authentication went from ${a.kind} to ${b.kind}`, at);
  if (a.kind === 'public' || b.kind === 'public') return;
  for (const had of a.alternatives) {
    if (b.kind === 'optional' || b.alternatives.some((needed) => meets(had, needed))) continue;
    const index = b.alternatives.findIndex((needed) => schemesOf(needed) === schemesOf(had));
    if (index >= 0) {
      const extra = Object.entries(b.alternatives[index]).flatMap(([scheme, scopes]) => scopes.filter((s) => !had[scheme].includes(s)));
      report('scope-added', '', `a ${schemesOf(had)} token now needs ${extra.join(', ')}`, `${at}/${index}`);
    } else {
      report('security-requirement-removed', '', `a client authenticating with ${schemesOf(had)} (${Object.values(had).flat().join(', ') || 'no scope'}) can no longer call it`, at);
    }
  }
  b.alternatives.forEach((needed, index) => {
    const was = a.alternatives.find((had) => schemesOf(had) === schemesOf(needed));
    if (!was) report('security-requirement-added', '', `${schemesOf(needed)} is now accepted`, `${at}/${index}`);
    else if (meets(was, needed) && !meets(needed, was)) report('scope-removed', '', `a ${schemesOf(needed)} token needs fewer scopes`, `${at}/${index}`);
  });
}

/**
 * The security schemes of the components: added, removed, their type and OAuth flows.
 * @param {any} before @param {any} after @param {(code: string, where: string, message: string, pointer: string) => void} report
 */
export function compareSecuritySchemes(before, after, report) {
  const schemesA = before.components?.securitySchemes ?? {};
  const schemesB = after.components?.securitySchemes ?? {};
  const at = (...parts) => appendPointer('#/components/securitySchemes', ...parts.filter((p) => p !== ''));
  for (const name of Object.keys(schemesA)) if (!schemesB[name]) report('security-scheme-removed', name, `security scheme ${name} was removed`, '#/components/securitySchemes');
  for (const [name, b] of Object.entries(schemesB)) {
    const a = schemesA[name];
    if (!a) { report('security-scheme-added', name, `security scheme ${name} was added`, at(name)); continue; }
    if (a.type !== b.type) report('security-scheme-type-changed', name, `security scheme ${name}: type ${a.type} → ${b.type}`, at(name, 'type'));
    for (const [flow, fb] of Object.entries(b.flows ?? {})) {
      const fa = a.flows?.[flow];
      if (!fa) continue;
      for (const url of ['authorizationUrl', 'tokenUrl', 'refreshUrl']) {
        if (fa[url] !== fb[url]) report('oauth-url-changed', `${name}.${flow}`, `${name} ${flow}: ${url} ${fa[url] ?? 'none'} → ${fb[url] ?? 'none'}`, at(name, 'flows', flow, fb[url] ? url : ''));
      }
      const [sa, sb] = [fa.scopes ?? {}, fb.scopes ?? {}];
      for (const scope of Object.keys(sa)) if (!(scope in sb)) report('oauth-scope-removed', `${name}.${flow}`, `${name} ${flow}: scope ${scope} was removed`, at(name, 'flows', flow, 'scopes'));
      for (const scope of Object.keys(sb)) {
        if (!(scope in sa)) report('oauth-scope-added', `${name}.${flow}`, `${name} ${flow}: scope ${scope} was added`, at(name, 'flows', flow, 'scopes', scope));
        else if (sa[scope] !== sb[scope]) report('oauth-scope-changed', `${name}.${flow}`, `${name} ${flow}: scope ${scope} is described differently`, at(name, 'flows', flow, 'scopes', scope));
      }
    }
  }
}
