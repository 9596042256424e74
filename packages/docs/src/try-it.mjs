// The data of the "Try it" console (assets/try-it.js), derived from the bundle at build time: for
// each operation its method, path, authentication, the parameters a request can carry with the
// spec's example values, and its JSON request body's named examples; and the spec's servers,
// which the console lists as targets beside those of the docs server. The page embeds it; the
// console's code never restates the spec.
import { basePathOf } from '@cloudapi/spec/bundle';
import { operations, mediaExamples } from '@cloudapi/spec/walk';
import { authOf, parameterValue, requestBodyOf } from './samples.mjs';

/** A parameter's example as the text of a form field (objects as JSON). */
function fieldText(value) {
  if (value === undefined || value === null) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function bodyOf(document, op) {
  const body = requestBodyOf(document, op);
  if (!body) return null;
  if (!/^application\/(.+\+)?json$/.test(body.mediaType)) return { mediaType: body.mediaType, examples: [], unsupported: true };
  const named = mediaExamples(document, body.media);
  const examples = named.length ? named : [{ name: 'example', value: body.value }];
  return { mediaType: body.mediaType, examples: examples.map((e) => ({ name: e.name, summary: e.summary ?? e.name, text: JSON.stringify(e.value, null, 2) })) };
}

/** The spec's servers as console targets: those with a plain http(s) URL (no `{variables}`), named by their description. */
function serversOf(document) {
  return (document.servers ?? [])
    .map((server, i) => ({ name: server.description ?? `Server ${i + 1}`, url: String(server.url ?? '').replace(/\/+$/, '') }))
    .filter((server) => /^https?:\/\/[^{}]+$/.test(server.url));
}

/**
 * @returns {{ basePath: string, servers: Array<{ name: string, url: string }>, operations: Array<{ id: string, method: string, path: string, auth: 'none'|'optional'|'required',
 *   parameters: Array<{ name: string, in: 'path'|'query'|'header', required: boolean, value: string }>,
 *   body: { mediaType: string, examples: Array<{ name: string, summary: string, text: string }>, unsupported?: boolean } | null }> }}
 */
export function tryItData(document) {
  return {
    basePath: basePathOf(document),
    servers: serversOf(document),
    operations: [...operations(document)].map((op) => ({
      id: op.operation.operationId,
      method: op.method.toUpperCase(),
      path: op.path,
      auth: authOf(document, op),
      parameters: op.parameters.filter((p) => ['path', 'query', 'header'].includes(p.in)).map((p) => {
        const required = p.in === 'path' || Boolean(p.required);
        // Optional parameters start empty (not sent) unless the spec gives them an example.
        const hasExample = p.example !== undefined || p.examples !== undefined;
        return { name: p.name, in: p.in, required, value: required || hasExample ? fieldText(parameterValue(document, p)) : '' };
      }),
      body: bodyOf(document, op),
    })),
  };
}

/** The console inlined into the page: its data, style and script (nothing fetched to show it). */
export function tryItMarkup(data, { script, style }) {
  // `<` escaped so that no string of the spec can close the script element.
  const json = JSON.stringify(data).replace(/</g, '\\u003c');
  return `<style id="try-it-style">${style}</style>\n<script type="application/json" id="try-it-data">${json}</script>\n<script>${script}</script>\n`;
}

/** Inserts the console before `</body>`. */
export function injectTryIt(html, markup) {
  const at = html.lastIndexOf('</body>');
  if (at < 0) throw new Error('the page has no </body> to put the Try it console before');
  return `${html.slice(0, at)}${markup}${html.slice(at)}`;
}
