// Objects written through URLs the target hands out. An operation marked `x-presigned-url`
// (spec/DECISIONS.md section 5) answers a URL that anyone may use without a token, for the method,
// Content-Type and object its request named. No operation of the bundle writes an object, yet
// others address one by name (the ACL of `photos/cat.jpg`): so the kit writes each object those
// operations name through a PUT URL before they run, checks that the URLs do what they are made
// for (an upload with its Content-Type, read back through a GET URL, removed through a DELETE
// URL), and removes what it wrote before deleting the container it wrote in. It only ever
// changes or removes objects this run wrote.
import { describeAnswer, is2xx, is4xx } from '../checks/answers.js';
import { type Check, fail, pass, skip } from '../checks/outcome.js';
import { type ObjectBook, type ObjectSite, uploadExample, urlBody } from '../model/objects.js';
import { valueAt } from '../model/operations.js';
import type { Resource } from '../model/resources.js';
import { type Answer, mediaTypeOf } from '../transport/http.js';

/** A use of a URL: the method it was made for, the Content-Type it carries, and the bytes it sends. */
export interface UrlUse { method: string; url: string; contentType?: string; payload?: string }

/** What the run gives the sequences here: making a URL, using one, and recording a check without a request. */
export interface UrlTools {
  /** the URL, or why there is none (`skip`: a URL the run may not use, such as one on another host) */
  make: (site: ObjectSite, container: Resource, body: Record<string, unknown>, label: string) => Promise<{ url?: string; why?: string; skip?: boolean }>;
  use: (use: UrlUse, label: string, judge: (answer: Answer) => Check[]) => Promise<Answer>;
  record: (label: string, checks: Check[]) => void;
}

const payloadOf = (tag: string, what: string) => `written by the contract kit, run ${tag}: ${what}\n`;

/** Writes `name` into the container through a PUT URL; undefined when written, else why not. */
export async function writeObject(site: ObjectSite, container: Resource, name: string, tools: UrlTools, book: ObjectBook, valid: (body: unknown) => boolean, tag: string): Promise<string | undefined> {
  if (!site.methods.includes('PUT')) return `${site.op.id} makes no PUT URL (its method field allows ${site.methods.join(', ') || 'nothing'})`;
  const { contentType } = uploadExample(site);
  const body = urlBody(site, 'PUT', name, contentType, valid);
  if (!body) return `no valid ${site.op.id} body makes a PUT URL for "${name}"`;
  const made = await tools.make(site, container, body, `write "${name}": ${site.op.id} makes a PUT URL`);
  if (!made.url) return `${site.op.id} made no PUT URL for it: ${made.why}`;
  const type = site.contentTypePointer ? valueAt(body, site.contentTypePointer) as string : undefined;
  const answer = await tools.use({ method: 'PUT', url: made.url, contentType: type, payload: payloadOf(tag, name) }, `write "${name}" through the PUT URL`, () => []);
  if (!is2xx(answer.status)) return `the PUT URL ${site.op.id} made for it answered ${describeAnswer(answer)}`;
  book.add(container, name, type);
  return undefined;
}

/** Removes objects the run wrote in the container through DELETE URLs; answers what could not be removed, with why. */
export async function removeObjects(site: ObjectSite, container: Resource, names: string[], tools: UrlTools, book: ObjectBook, valid: (body: unknown) => boolean): Promise<string[]> {
  const left: string[] = [];
  for (const name of names.filter((n) => book.has(container, n))) {
    const body = site.methods.includes('DELETE') ? urlBody(site, 'DELETE', name, undefined, valid) : undefined;
    if (!body) { left.push(`"${name}": ${site.op.id} makes no DELETE URL`); continue; }
    const made = await tools.make(site, container, body, `remove "${name}", which the run wrote: ${site.op.id} makes a DELETE URL`);
    const answer = made.url ? await tools.use({ method: 'DELETE', url: made.url }, `remove "${name}" through the DELETE URL`, () => []) : undefined;
    if (answer && is2xx(answer.status)) book.remove(container, name);
    else left.push(`"${name}": ${made.why ?? `the DELETE URL answered ${describeAnswer(answer!)}`}`);
  }
  return left;
}

/**
 * The check of a site's URLs on an object of the run's own: a PUT URL accepts an upload with its
 * Content-Type and refuses another one, a GET URL reads the upload back (bytes and type), a
 * DELETE URL removes it (a GET then answers 404).
 */
export async function checkUrls(site: ObjectSite, container: Resource, tools: UrlTools, book: ObjectBook, valid: (body: unknown) => boolean, tag: string): Promise<void> {
  const UPLOAD = 'a pre-signed PUT URL accepts an upload';
  if (!site.methods.includes('PUT')) { tools.record('pre-signed URLs', [skip(UPLOAD, `${site.op.id} makes no PUT URL`)]); return; }
  const example = uploadExample(site);
  // A name of this run's own, so that nothing another run (or anyone) wrote is replaced.
  const name = (example.name ?? 'contract-kit.txt').replace(/(\.[^./]*)?$/, (ext) => `-${tag}${ext}`);
  const body = urlBody(site, 'PUT', name, example.contentType, valid);
  const made: { url?: string; why?: string; skip?: boolean } = body ? await tools.make(site, container, body, `${site.op.id} makes a PUT URL for "${name}"`) : { why: `no valid body makes a PUT URL for "${name}"` };
  if (!made.url) { tools.record(`PUT through a URL of ${site.op.id}`, [(made.skip ? skip : fail)(UPLOAD, `there is no URL to try: ${made.why}`)]); return; }
  const contentType = site.contentTypePointer ? valueAt(body, site.contentTypePointer) as string | undefined : undefined;
  const payload = payloadOf(tag, name);
  if (contentType) {
    const other = contentType === 'text/plain' ? 'application/octet-stream' : 'text/plain';
    const NAME = 'a pre-signed URL refuses another Content-Type';
    const wrong = await tools.use({ method: 'PUT', url: made.url, contentType: other, payload: 'the wrong content type\n' }, `PUT as ${other} through the URL made for ${contentType}`,
      (a) => [is4xx(a.status) ? pass(NAME, `${a.status}`) : fail(NAME, `answered ${describeAnswer(a)} to a PUT as ${other} through a URL made for ${contentType}; the request must send the Content-Type the URL was made for`)]);
    if (is2xx(wrong.status)) book.add(container, name, other);
  }
  const upload = await tools.use({ method: 'PUT', url: made.url, contentType, payload }, `upload "${name}" through the PUT URL${contentType ? ` as ${contentType}` : ''}`,
    (a) => [is2xx(a.status) ? pass(UPLOAD, `${a.status}`) : fail(UPLOAD, `answered ${describeAnswer(a)} to an upload of ${payload.length} bytes${contentType ? ` as ${contentType}` : ''} through the URL ${site.op.id} made for it`)]);
  if (!is2xx(upload.status)) return;
  book.add(container, name, contentType);

  const read = async (label: string, judge: (a: Answer) => Check[]) => {
    const url = urlBody(site, 'GET', name, undefined, valid);
    const got = url ? await tools.make(site, container, url, `${site.op.id} makes a GET URL for "${name}"`) : { why: 'no valid body makes a GET URL' };
    if (!got.url) { tools.record(label, judge({ headers: {}, mediaType: '', text: '', ms: 0, bytes: 0, error: `there is no GET URL: ${got.why}` })); return; }
    await tools.use({ method: 'GET', url: got.url }, label, judge);
  };
  if (site.methods.includes('GET')) {
    const READ = 'a pre-signed GET URL reads the upload back';
    await read(`read "${name}" back through a GET URL`, (a) => {
      if (!is2xx(a.status)) return [fail(READ, a.error ?? `answered ${describeAnswer(a)} for the object just uploaded`)];
      if (a.text !== payload) return [fail(READ, `answered ${a.bytes} bytes that differ from the ${payload.length} uploaded`)];
      if (contentType && mediaTypeOf(a.headers['content-type']) !== mediaTypeOf(contentType)) return [fail(READ, `answered it as ${a.headers['content-type'] ?? 'no content type'}; it was uploaded as ${contentType}`)];
      return [pass(READ, `${a.bytes} bytes${contentType ? ` as ${contentType}` : ''}`)];
    });
  }
  if (!site.methods.includes('DELETE')) return;
  const REMOVE = 'a pre-signed DELETE URL removes the object';
  const left = await removeObjects(site, container, [name], { ...tools, use: (use, label) => tools.use(use, label, (a) => [is2xx(a.status) ? pass(REMOVE, `${a.status}`) : fail(REMOVE, `answered ${describeAnswer(a)} to a DELETE through the URL ${site.op.id} made for it`)]) }, book, valid);
  if (left.length) { tools.record(`remove "${name}"`, [fail(REMOVE, left.join('; '))]); return; }
  if (site.methods.includes('GET')) {
    const GONE = 'gone after the pre-signed DELETE';
    await read(`read "${name}" after its delete`, (a) => [a.status === 404 ? pass(GONE) : fail(GONE, a.error ?? `a GET URL answered ${describeAnswer(a)} after the DELETE URL removed the object: expected 404`)]);
  }
}
