// Every finding code of the breaking-change engine with its level, in one place: the engine looks
// the level up here, CONTRIBUTING.md's table lists them and spec/README.md maps oasdiff's checks
// onto them (spec/test/breaking-catalogue.test.mjs holds the three together).
//
//   breaking  a client written against the earlier bundle can now fail
//   warning   a client may misbehave, or something built from the bundle changes its names
//   info      nothing breaks; reported only with `{ all: true }` (the API changelog)
//
// The schema codes come in a request and a response form with opposite levels: what the server
// accepts must not shrink, what it answers must not grow. Parameters take the request forms
// (`parameter-…`), response headers the response forms (`response-header-…`).

/** @typedef {'breaking' | 'warning' | 'info'} Level */

/**
 * What a schema comparison reports: each aspect's level on the request side and on the response
 * side (null where the side has no such finding). Narrowing breaks requests, widening responses.
 * @type {Record<string, [Level | null, Level | null]>}
 */
const SCHEMA_CODES = {
  //                         request      response
  'type-narrowed':          ['breaking', 'info'],
  'type-widened':           ['info', 'breaking'],
  'enum-narrowed':          ['breaking', 'info'],
  'enum-widened':           ['info', 'warning'], // clients that switch over every value need a case
  'const-changed':          [null, 'breaking'], // a request's const change is an enum narrowed
  'range-narrowed':         ['breaking', 'info'],
  'range-widened':          ['info', 'breaking'],
  'pattern-added':          ['breaking', 'info'],
  'pattern-removed':        ['info', 'breaking'],
  'pattern-changed':        ['warning', 'warning'], // which one admits more cannot be told
  'pattern-generalized':    ['info', null],
  'property-added':         ['info', 'info'],
  'property-removed':       ['breaking', 'breaking'], // request: the body rejects unknown fields
  'property-removed-open':  ['warning', null],
  'optional-property-removed': [null, 'warning'], // the generated types lose it: code that reads it no longer compiles
  'property-required':      ['breaking', 'info'],
  'property-optional':      ['info', 'breaking'],
  'property-deprecated':    ['info', 'info'],
  'property-reactivated':   ['info', 'info'],
  'property-access-changed': ['info', 'info'],
  'default-changed':        ['info', 'info'],
  'constraint-added':       ['breaking', 'info'],
  'constraint-removed':     ['info', 'breaking'],
  'constraint-changed':     ['breaking', 'breaking'],
  'alternative-added':      ['info', 'breaking'],
  'alternative-removed':    ['breaking', 'info'],
  'wrapped-in-one-of':      ['breaking', 'breaking'],
  'annotation-changed':     ['info', 'info'],
  'restructured':           ['info', 'info'], // an allOf part whose rules are all compared field by field, none narrower
  'prefix-item-added':      ['info', 'breaking'],
  'prefix-item-removed':    ['breaking', 'info'],
};

/** The codes of everything that is not a schema. @type {Record<string, Level>} */
const OTHER_CODES = {
  // operations and the document
  'operation-added': 'info',
  'operation-removed': 'breaking',
  'operation-deprecated': 'info',
  'operation-reactivated': 'info',
  'operation-id-changed': 'warning',
  'operation-tag-added': 'info',
  'operation-tag-removed': 'warning',
  'base-path-changed': 'breaking',
  'server-url-changed': 'warning',
  'schema-removed': 'warning',
  // security
  'security-tightened': 'breaking',
  'security-requirement-removed': 'breaking',
  'security-requirement-added': 'info',
  'scope-added': 'breaking',
  'scope-removed': 'info',
  'security-scheme-added': 'info',
  'security-scheme-removed': 'info',
  'security-scheme-type-changed': 'info',
  'oauth-url-changed': 'info',
  'oauth-scope-added': 'info',
  'oauth-scope-removed': 'info',
  'oauth-scope-changed': 'info',
  // parameters
  'parameter-added': 'info',
  'parameter-removed': 'warning',
  'parameter-required': 'breaking',
  'parameter-optional': 'info',
  'parameter-deprecated': 'info',
  'parameter-reactivated': 'info',
  'parameter-renamed': 'info',
  'parameter-serialization-changed': 'breaking', // style or explode: the same value is written another way
  // request bodies
  'request-body-added': 'info',
  'request-body-removed': 'breaking',
  'request-body-required': 'breaking',
  'request-body-optional': 'info',
  'request-media-added': 'info',
  'request-media-removed': 'breaking',
  'request-schema-added': 'breaking',
  'request-schema-removed': 'info',
  // responses
  'success-status-added': 'info',
  'success-status-removed': 'breaking',
  'error-status-added': 'info',
  'error-status-removed': 'info',
  'response-media-added': 'info',
  'response-media-removed': 'breaking',
  'response-media-parameters-changed': 'info',
  'response-schema-added': 'info',
  'response-schema-removed': 'breaking',
  'response-header-added': 'info',
  'response-header-removed': 'breaking',
  'response-optional-header-removed': 'warning',
  'response-header-optional': 'breaking',
  'response-header-required': 'info',
  // a header is text: a reader of a string header still reads an integer one
  'response-header-type-compatible': 'info',
};

/**
 * Every code and its level: the other codes, then the schema codes of each side under their
 * prefixes (`request-`, `parameter-`, `response-`, `response-header-`).
 * @type {Readonly<Record<string, Level>>}
 */
export const CODES = Object.freeze({
  ...OTHER_CODES,
  ...Object.fromEntries(Object.entries(SCHEMA_CODES).flatMap(([aspect, [request, response]]) => [
    ...(request ? [[`request-${aspect}`, request], [`parameter-${aspect}`, request]] : []),
    ...(response ? [[`response-${aspect}`, response], [`response-header-${aspect}`, response]] : []),
  ])),
});

/**
 * The level of a schema comparison's aspect on one side (undefined for an aspect with no schema
 * code there, such as a header's compatible type).
 * @param {string} aspect @param {'request' | 'response'} side @returns {Level | null | undefined}
 */
export function schemaLevel(aspect, side) {
  return SCHEMA_CODES[aspect]?.[side === 'request' ? 0 : 1];
}

/** @type {Record<Level, number>} */
export const LEVEL_RANK = { info: 0, warning: 1, breaking: 2 };

/**
 * The level of a code; an unknown code is a programming error, named.
 * @param {string} code @returns {Level}
 */
export function levelOf(code) {
  const level = CODES[code];
  if (!level) throw new Error(`breaking-change engine: unknown finding code "${code}" (add it to lib/breaking/codes.mjs)`);
  return level;
}
