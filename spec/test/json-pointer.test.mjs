// The one JSON-pointer helper (RFC 6901): tokens escaped and unescaped in the right order, URI
// fragments percent-decoded, only a node's own members followed, and a malformed pointer refused
// with a message saying how it is written.
import { describe, expect, it } from 'vitest';
import { appendPointer, escapeToken, formatPointer, parsePointer, resolvePointer, unescapeToken } from '../lib/json-pointer.mjs';

describe('JSON pointers', () => {
  it('escapes "~" before "/" and unescapes "~1" before "~0"', () => {
    expect(escapeToken('a/b~c')).toBe('a~1b~0c');
    expect(escapeToken(3)).toBe('3');
    // "~01" is the token "~1", not "/": unescaping "~0" first would make it "/".
    expect(unescapeToken('~01')).toBe('~1');
    expect(unescapeToken('a~1b~0c')).toBe('a/b~c');
    expect(() => unescapeToken('a~2')).toThrow(/"~" is written "~0" and "\/" is written "~1"/);
  });

  it('parses plain pointers and URI fragments, the whole document included', () => {
    expect(parsePointer('')).toEqual([]);
    expect(parsePointer('#')).toEqual([]);
    expect(parsePointer('/a/b~1c')).toEqual(['a', 'b/c']);
    expect(parsePointer('#/paths/~1volumes~1{volumeId}/get')).toEqual(['paths', '/volumes/{volumeId}', 'get']);
    expect(parsePointer('/')).toEqual(['']);
    expect(parsePointer('/a//b/')).toEqual(['a', '', 'b', '']);
  });

  it('percent-decodes the tokens of a fragment only, keeping a "%" that starts no escape', () => {
    expect(parsePointer('#/a%20b/c%7E1d')).toEqual(['a b', 'c/d']);
    expect(parsePointer('/a%20b')).toEqual(['a%20b']);
    expect(parsePointer('#/50%')).toEqual(['50%']);
  });

  it('refuses what is no pointer, saying how one is written', () => {
    expect(() => parsePointer('components/schemas')).toThrow('not a JSON pointer: "components/schemas" (it must be empty or start with "/" or "#/")');
    expect(() => parsePointer('other.yaml#/a')).toThrow(/not a JSON pointer/);
    expect(() => parsePointer(undefined)).toThrow(/a JSON pointer is a string, not undefined/);
  });

  it('formats tokens plain or as a fragment (a "%" encoded), and back', () => {
    const tokens = ['paths', '/volumes/{volumeId}', 'get', 0, 'a~b', '50%'];
    expect(formatPointer(tokens, { fragment: true })).toBe('#/paths/~1volumes~1{volumeId}/get/0/a~0b/50%25');
    expect(formatPointer(tokens)).toBe('/paths/~1volumes~1{volumeId}/get/0/a~0b/50%');
    expect(parsePointer(formatPointer(tokens, { fragment: true }))).toEqual(tokens.map(String));
    expect(parsePointer(formatPointer(tokens))).toEqual(tokens.map(String));
    expect(formatPointer([], { fragment: true })).toBe('#');
    expect(formatPointer([])).toBe('');
  });

  it('appends tokens in the form of the pointer it extends', () => {
    expect(appendPointer('#/paths/~1volumes/post', 'requestBody', 'content', 'application/json', 'schema'))
      .toBe('#/paths/~1volumes/post/requestBody/content/application~1json/schema');
    expect(appendPointer('', 'data', 0, '50%')).toBe('/data/0/50%');
    expect(appendPointer('#', '50%')).toBe('#/50%25');
  });

  it('resolves a pointer, or its tokens, following only own members', () => {
    const root = { paths: { '/volumes': { get: { ok: true } } }, list: ['x', 'y'], '': 'empty', 'a~b': 1 };
    expect(resolvePointer(root, '#/paths/~1volumes/get')).toEqual({ ok: true });
    expect(resolvePointer(root, '/list/1')).toBe('y');
    expect(resolvePointer(root, ['list', 0])).toBe('x');
    expect(resolvePointer(root, '/')).toBe('empty');
    expect(resolvePointer(root, '/a~0b')).toBe(1);
    expect(resolvePointer(root, '#')).toBe(root);
    for (const absent of ['/missing', '/list/2', '/list/01', '/list/length', '/constructor', '/paths/toString', '/list/0/x']) {
      expect(resolvePointer(root, absent), absent).toBeUndefined();
    }
  });
});
