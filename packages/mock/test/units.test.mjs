// The front layer's small parts on their own: sizes, JSON depth, Prefer checks, and how Prism's
// problems and violations become ErrorResponse entries.
import { describe, expect, it } from 'vitest';
import { isJsonType, jsonDepth, jsonProblem, parseSize } from '../src/body.mjs';
import { describeViolation, detailsOf, fromProblem } from '../src/errors.mjs';
import { checkPreferences } from '../src/prefer.mjs';

describe('parseSize', () => {
  it('reads bytes and binary or decimal units', () => {
    expect(parseSize('1048576')).toBe(1048576);
    expect(parseSize('1MiB')).toBe(1048576);
    expect(parseSize('512 KiB')).toBe(524288);
    expect(parseSize('2MB')).toBe(2_000_000);
    expect(parseSize('1.5kib')).toBe(1536);
  });
  it('refuses anything else, saying how to write a size', () => {
    for (const bad of ['', 'big', '-1', '12XB', '0']) expect(() => parseSize(bad)).toThrow(/size/);
  });
});

describe('JSON bodies', () => {
  it('measures nesting without parsing, ignoring brackets inside strings, stopping past the limit', () => {
    expect(jsonDepth(Buffer.from('{"a":[1,{"b":2}]}'), 64)).toBe(3);
    expect(jsonDepth(Buffer.from('{"a":"[[[[\\"[[["}'), 64)).toBe(1);
    expect(jsonDepth(Buffer.from('['.repeat(100_000)), 64)).toBe(65);
  });
  it('says why a body cannot be passed on', () => {
    expect(jsonProblem(Buffer.from('{"label":"data"}'), 64)).toEqual({ value: { label: 'data' } });
    expect(jsonProblem(Buffer.from(''), 64)).toEqual({ value: null });
    expect(jsonProblem(Buffer.from('[[[]]]'), 2).problem).toMatch(/more than 2 levels/);
    expect(jsonProblem(Buffer.from('{"label":'), 64).problem).toMatch(/not valid JSON/);
  });
  it('knows JSON media types', () => {
    expect(isJsonType('application/json; charset=utf-8')).toBe(true);
    expect(isJsonType('application/merge-patch+json')).toBe(true);
    expect(isJsonType('multipart/form-data; boundary=x')).toBe(false);
  });
});

describe('checkPreferences', () => {
  const op = { operationId: 'getVolume', examples: new Map([['200', new Set(['volume'])], ['400', new Set(['invalidField'])], ['404', new Set(['notFound'])]]) };
  const none = new URLSearchParams();
  it('lets through what the operation declares', () => {
    expect(checkPreferences(op, 'code=404', none)).toEqual({});
    expect(checkPreferences(op, 'example=volume', none)).toEqual({ example: 'volume' });
    expect(checkPreferences(op, 'code=400, example=invalidField', none)).toEqual({ example: 'invalidField' });
    expect(checkPreferences(op, 'dynamic=true', none)).toEqual({});
    expect(checkPreferences(op, 'return=minimal', none)).toEqual({}); // not Prism's: ignored, as RFC 7240 says
  });
  it('names the status of an error example, which Prism would look for among the success examples only', () => {
    expect(checkPreferences(op, 'example=notFound', none)).toEqual({ example: 'notFound', prefer: 'example=notFound, code=404' });
  });
  it('refuses the rest, listing what is declared', () => {
    expect(checkPreferences(op, 'code=500', none).error).toBe('Prefer: code=500 asks for a response getVolume does not declare; it declares 200, 400, 404.');
    expect(checkPreferences(op, 'code=4O4', none).error).toMatch(/not a status code/);
    expect(checkPreferences(op, 'example=nope', none).error).toBe('Prefer: example=nope: getVolume has no example of that name (200: volume; 400: invalidField; 404: notFound).');
    expect(checkPreferences(op, 'code=404, example=volume', none).error).toMatch(/the 404 response of getVolume has no example of that name; it has notFound/);
    expect(checkPreferences(op, 'dynamic=yes', none).error).toMatch(/not true or false/);
    expect(checkPreferences(op, undefined, new URLSearchParams('__code=500')).error).toMatch(/^__code=500 asks for/);
  });
});

describe('violations into ErrorResponse entries', () => {
  const v = (location, code, message) => ({ location, severity: 'Error', code, message });
  it('names the field, nested ones dotted, required and unknown ones from the message, parameters as declared', () => {
    expect(detailsOf([
      v(['request', 'body'], 'required', "Request body must have required property 'region'"),
      v(['request', 'body'], 'if', 'Request body must match "then" schema'),
      v(['request', 'body', 'devices', 'sda'], 'additionalProperties', "Request body property devices.sda must NOT have additional properties; found 'size'"),
      v(['request', 'body'], 'dependentRequired', 'Request body must have property compute_id when property config_id is present'),
      v(['request', 'path', 'volumeid'], 'type', 'Request path parameter volumeid must be integer'),
      v(['request', 'query', 'page_size'], 'maximum', 'Request query parameter page_size must be <= 100'),
    ], ['volumeId', 'page_size'])).toEqual([
      { field: 'region', reason: 'This field is required.' },
      { field: 'devices.sda.size', reason: 'This field is not allowed here.' },
      { field: 'compute_id', reason: 'This field is required when config_id is present.' },
      { field: 'volumeId', reason: 'Must be integer.' },
      { field: 'page_size', reason: 'Must be <= 100.' },
    ]);
  });
  it('keeps a composite violation when it is all there is', () => {
    expect(detailsOf([v(['request', 'body'], 'oneOf', 'Request body must match exactly one schema in oneOf')])).toEqual([{ reason: 'Must match exactly one schema in oneOf.' }]);
  });
  it('describes response violations for the proxy log', () => {
    expect(describeViolation(v(['response', 'body', 'data', '0', 'size'], 'type', 'Response body property data.0.size must be integer'))).toBe('response body.data.0.size: Must be integer.');
    expect(describeViolation(v(['response', 'body'], 'required', "Response body must have required property 'region'"))).toBe('response body.region: This field is required.');
  });
  it('maps each Prism problem to a status and an ErrorResponse', () => {
    const problem = (type, extra = {}) => ({ type: `https://stoplight.io/prism/errors#${type}`, title: 't', status: 418, detail: 'd', ...extra });
    expect(fromProblem(problem('NO_PATH_MATCHED_ERROR'), { path: '/v4/x' })).toMatchObject({ status: 404, errors: [{ reason: 'No operation of the API answers /v4/x.' }] });
    expect(fromProblem(problem('NOT_FOUND')).status).toBe(400);
    expect(fromProblem(problem('NOT_ACCEPTABLE')).status).toBe(400);
    expect(fromProblem(problem('UNPROCESSABLE_ENTITY', { validation: [v(['body'], 'required', "Request body must have required property 'label'")] }))).toMatchObject({ status: 400, errors: [{ field: 'label' }] });
    const broken = problem('VIOLATIONS', { validation: [v(['response', 'body', 'size'], 'type', 'Response body property size must be integer')] });
    expect(fromProblem(broken)).toMatchObject({ status: 500, errors: [{ reason: expect.stringMatching(/mock's example breaks its own schema.*response body\.size/) }] });
    expect(fromProblem(broken, { proxy: true })).toMatchObject({ status: 502, errors: [{ reason: expect.stringMatching(/implementation's answer breaks the contract/) }] });
    expect(fromProblem({ type: 'Error', detail: 'connect ECONNREFUSED' }, { proxy: true })).toMatchObject({ status: 502, errors: [{ reason: expect.stringMatching(/could not be reached/) }] });
  });
});
