// Multipart bodies against the mock (the ticket attachment upload): a file part without a
// Content-Type of its own (RFC 7578 allows it) is taken, and a seeded fuzz of broken forms
// (missing part headers, no file name, empty parts, a wrong or missing boundary, a body cut
// short, stray bytes) never gets a 5xx, and every 4xx is an ErrorResponse.
import { describe, expect, inject, it } from 'vitest';
import { auth, errorResponseProblems } from './support/spec.mjs';

// The run's example mock (test/support/example-mock.mjs).
const mock = inject('exampleMock');

const BOUNDARY = 'fuzz-boundary';

async function upload(body, contentType = `multipart/form-data; boundary=${BOUNDARY}`) {
  const response = await fetch(`${mock.baseUrl}/support/tickets/1/attachments`, { method: 'POST', headers: { ...auth, 'content-type': contentType }, body });
  const text = await response.text();
  return { status: response.status, text, body: text ? JSON.parse(text) : undefined };
}

const part = ({ name = 'file', filename = 'a.txt', type = 'text/plain', data = 'hello', disposition = true } = {}) => [
  `--${BOUNDARY}`,
  ...(disposition ? [`Content-Disposition: form-data; name="${name}"${filename === null ? '' : `; filename="${filename}"`}`] : []),
  ...(type === null ? [] : [`Content-Type: ${type}`]),
  '',
  data,
].join('\r\n') + '\r\n';
const end = `--${BOUNDARY}--\r\n`;

describe('multipart bodies on the mock', () => {
  it('a file part without its own Content-Type is taken (2xx), as RFC 7578 allows', async () => {
    const answer = await upload(part({ type: null }) + end);
    expect(answer.status, answer.text).toBe(200);
  });

  it('a form without its closing boundary is a 400 naming the multipart body', async () => {
    const answer = await upload(part());
    expect(answer.status).toBe(400);
    expect(errorResponseProblems(answer.body)).toEqual([]);
    expect(answer.body.errors[0].reason).toMatch(/multipart body/);
  });

  it('a fuzz of 160 broken forms: never a 5xx, every 4xx an ErrorResponse', async () => {
    // A small seeded generator: the same 160 bodies on every run.
    let seed = 20261127;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const pick = (list) => list[Math.floor(random() * list.length)];
    const pieces = [
      () => part(),
      () => part({ type: null }),
      () => part({ filename: null }),
      () => part({ filename: '' }),
      () => part({ disposition: false }),
      () => part({ disposition: false, type: null }),
      () => part({ data: '' }),
      () => part({ name: 'other' }),
      () => part({ name: 'fi"le', filename: 'a;b=c.txt' }),
      () => part({ type: 'image/png', filename: 'x.png', data: '\u0000\u0001\u0002' }),
      () => `--${BOUNDARY}\r\n\r\n\r\n`,
      () => `--${BOUNDARY}\r\nContent-Disposition\r\n\r\nx\r\n`,
      () => `--${BOUNDARY}\r\nX-Nothing: 1\r\n\r\nx\r\n`,
      () => 'stray bytes before anything\r\n',
    ];
    const contentTypes = [
      `multipart/form-data; boundary=${BOUNDARY}`,
      `multipart/form-data; boundary=${BOUNDARY}`,
      `multipart/form-data; boundary=${BOUNDARY}`,
      'multipart/form-data',
      'multipart/form-data; boundary=',
      'multipart/form-data; boundary=another-boundary',
      `multipart/form-data; boundary="${BOUNDARY}"`,
      `multipart/form-data; charset=utf-8; boundary=${BOUNDARY}`,
    ];
    const statuses = new Map();
    const failures = [];
    for (let i = 0; i < 160; i++) {
      let body = Array.from({ length: Math.floor(random() * 4) }, () => pick(pieces)()).join('');
      if (random() < 0.6) body += end;
      if (random() < 0.3) body = body.slice(0, Math.floor(random() * body.length)); // cut short
      const contentType = pick(contentTypes);
      const answer = await upload(body, contentType);
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      const problems = answer.status >= 500 ? ['a 5xx'] : answer.status >= 400 ? errorResponseProblems(answer.body) : [];
      if (problems.length) failures.push(`${contentType} ${JSON.stringify(body).slice(0, 300)} → ${answer.status} ${answer.text.slice(0, 200)}: ${problems.join('; ')}`);
    }
    console.log(`[multipart fuzz] 160 bodies: ${[...statuses].sort().map(([s, n]) => `${s}×${n}`).join(', ')}`);
    expect(failures).toEqual([]);
    expect(statuses.get(200), 'some fuzzed forms are whole and taken').toBeGreaterThan(0);
    expect([...statuses.keys()].some((s) => s >= 400), 'some fuzzed forms are refused').toBe(true);
  });
});
