// `--debug`: each request and answer on standard error, the token masked, for the fetch the
// client sends with.
import type { Fetch } from '@cloudapi/client';

const mask = (name: string, value: string) => (name.toLowerCase() === 'authorization' ? value.replace(/^(\w+\s+).*$/, '$1****') : value);

export function debugFetch(write: (text: string) => void): Fetch {
  return async (input, init) => {
    const request = typeof input === 'string' ? undefined : input;
    const method = init?.method ?? request?.method ?? 'GET';
    const url = typeof input === 'string' ? input : input.url;
    const headers = new Headers(init?.headers ?? request?.headers);
    const lines = [`> ${method} ${url}`, ...[...headers].map(([name, value]) => `> ${name}: ${mask(name, value)}`)];
    if (typeof init?.body === 'string') lines.push(`> ${init.body}`);
    else if (init?.body) lines.push('> (a body of bytes or form parts)');
    write(`${lines.join('\n')}\n`);
    const started = performance.now();
    const response = await fetch(input, init);
    const text = await response.clone().text();
    write(`< ${response.status} ${response.statusText} (${Math.round(performance.now() - started)} ms)\n${[...response.headers].map(([n, v]) => `< ${n}: ${v}`).join('\n')}\n${text ? `< ${text}\n` : ''}`);
    return response;
  };
}
