// JSON pointers: the escapes (`~1`, `~0`, in that order), both written forms, and the value a
// pointer leads to.
import { describe, expect, it } from 'vitest';
import { escapeToken, formatPointer, parsePointer, unescapeToken, valueAtPointer } from '../lib/json-pointer.mjs';

describe('JSON pointers', () => {
  it('escape and unescape a token, `~1` before `~0` (so `~01` stays the token `~1`)', () => {
    expect(escapeToken('a/b~c')).toBe('a~1b~0c');
    expect(escapeToken(3)).toBe('3');
    expect(unescapeToken('a~1b~0c')).toBe('a/b~c');
    expect(unescapeToken('~01')).toBe('~1');
    for (const token of ['/', '~', '~1', '~0/~1', 'application/json', '']) expect(unescapeToken(escapeToken(token))).toBe(token);
  });

  it('read a pointer and a fragment (percent-decoded) into tokens, and write them back', () => {
    expect(parsePointer('')).toEqual([]);
    expect(parsePointer('#')).toEqual([]);
    expect(parsePointer('/')).toEqual(['']);
    expect(parsePointer('/paths/~1volumes/post')).toEqual(['paths', '/volumes', 'post']);
    expect(parsePointer('#/components/schemas/Volume%20Request')).toEqual(['components', 'schemas', 'Volume Request']);
    expect(parsePointer('/a%20b')).toEqual(['a%20b']);
    expect(formatPointer(['paths', '/volumes', 'post'])).toBe('/paths/~1volumes/post');
    expect(formatPointer(['content', 'application/json', 'schema'], { fragment: true })).toBe('#/content/application~1json/schema');
    expect(formatPointer([])).toBe('');
    expect(() => parsePointer('paths/x')).toThrow(/not a JSON pointer: "paths\/x"/);
  });

  it('lead to the value they name, or to nothing', () => {
    const value = { 'a/b': [{ '~': 1 }], image: { id: 'x' } };
    expect(valueAtPointer(value, '/a~1b/0/~0')).toBe(1);
    expect(valueAtPointer(value, '/image/id')).toBe('x');
    expect(valueAtPointer(value, '')).toBe(value);
    expect(valueAtPointer(value, '/image/id/deeper')).toBeUndefined();
    expect(valueAtPointer(value, '/missing/id')).toBeUndefined();
  });
});
