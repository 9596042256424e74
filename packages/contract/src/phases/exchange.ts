// Phase: the exchange of one request. Builds it, sends it (or lists it in a dry run), waits out a
// 429 and a refusal for the resource's state, checks the answer, records it, and keeps the run's
// counts of unusable answers: an operation that gave none twice is not asked again, and five in
// a row (or every valid request throttled or failing) end the run.
import { pointerGet } from '@cloudapi/spec/schema-views';
import { checkAnswer, excerpt, is2xx, successSchemaPointer } from '../checks/answers.js';
import { type Check, skip } from '../checks/outcome.js';
import type { RequestKind, RequestRecord } from '../run/types.js';
import { type Answer, type OutgoingRequest, send, toCurl } from '../transport/http.js';
import type { Operation } from '../model/operations.js';
import type { UrlUse } from './objects.js';
import { type Auth, type BodyValue, buildRequest, type Params } from '../transport/requests.js';
import { type RunState, Stop } from '../run/state.js';
import { retryAfterMs, sleep } from '../transport/timing.js';
import { markInjected } from '../checks/traffic-headers.js';
import { noteSeenStatus } from '../checks/status-coverage.js';

export interface Sent { answer: Answer; request: RequestRecord; dry?: boolean }
export interface ExchangeInput { params: Params; body?: BodyValue | null; auth: Auth }
export interface ExchangeFlags {
  /** sent during clean-up: after the deadline too, and never ending the run */
  cleanup?: boolean;
  /** a refusal for the resource's state (a 400 naming no field) is retried for settleMs */
  settle?: boolean;
  /** a probe of the kit's own (is it still there?): neither counts nor clears an operation's streak */
  probe?: boolean;
}

/** An answer for a dry run: the first success example of the operation. */
export function dryAnswer(document: any, op: Operation): Answer {
  const pointer = successSchemaPointer(document, op);
  const media = pointer ? pointerGet(document, pointer.replace(/\/schema$/, '')) : undefined;
  const example = media?.examples ? Object.values<any>(media.examples)[0] : undefined;
  const value = example?.$ref ? pointerGet(document, example.$ref)?.value : example?.value ?? media?.example;
  const code = Number(Object.keys(op.raw.responses || {}).find((c) => /^2/.test(c)) ?? 200);
  return { status: code, headers: {}, mediaType: 'application/json', text: '', json: value, ms: 0, bytes: 0 };
}

/** The line a dry run lists for a request, its token redacted. */
function plannedLine(s: RunState, request: OutgoingRequest, label: string): string {
  const auth = request.headers.filter(([n]) => n === 'authorization').map(([, v]) => `  [authorization: ${s.redact(v)}]`).join('');
  const body = request.body?.length ? `  ${excerpt(request.body.toString('utf8'), 200)}` : '';
  return `${request.method} ${decodeURIComponent(request.url)}${auth}${body}  (${label})`;
}

/** A refusal that says the target cannot serve now (throttled or unavailable), not that the request is wrong. */
export const refusedStatus = (status: number): boolean => status === 429 || status === 503;

/** A 429 or 503 as the abort names it: its status and Retry-After. */
export function describeRefusal(answer: Pick<Answer, 'status' | 'headers'>): string {
  const after = answer.headers['retry-after'];
  return `${answer.status}${after !== undefined ? `, Retry-After: ${String(after)}` : ''}`;
}

export async function exchange(s: RunState, schemaOp: Operation, into: RequestRecord[], label: string, kind: RequestKind, input: ExchangeInput, extra: (a: Answer) => Check[], { cleanup = false, settle = false, probe = false }: ExchangeFlags = {}): Promise<Sent> {
  const { options } = s;
  if (!cleanup && s.outOfTime()) throw new Stop();
  const request = await buildRequest({ baseUrl: s.baseUrl, method: schemaOp.method, path: schemaOp.path, params: input.params, body: input.body, auth: input.auth });
  if (s.dry) {
    s.planned.push(plannedLine(s, request, label));
    const record: RequestRecord = { label, kind, method: request.method, url: request.url, status: null, checks: [] };
    into.push(record);
    return { answer: dryAnswer(s.document, schemaOp), request: record, dry: true };
  }
  // An operation that gave no usable answer twice in a row is not asked again: a hang costs a
  // timeout each time, and one broken operation does not make the target unusable.
  if (!cleanup && (s.streaks.get(schemaOp.id) ?? 0) >= 2) {
    const record: RequestRecord = { label, kind, method: request.method, url: request.url, status: null, checks: [skip('not sent', `${schemaOp.id} gave no usable answer twice in a row`)] };
    into.push(record);
    return { answer: { headers: {}, mediaType: '', text: '', ms: 0, bytes: 0, error: 'not sent' }, request: record };
  }
  let answer: Answer;
  let retries = 0;
  const settleUntil = Date.now() + (settle ? s.settleMs : 0);
  for (let pause = 200; ; pause = Math.min(pause * 2, 2000)) {
    answer = await send(request, s.transport);
    // A Retry-After longer than the kit waits (10 s) is not waited out early: the answer stands.
    const wait = answer.status === 429 ? retryAfterMs(answer, Infinity) : Infinity;
    if (wait <= (options.maxRetryAfterMs ?? 10_000) && retries < (options.maxRetries ?? 3) && s.rateLimitedInARow < 20 && !s.outOfTime()) {
      retries++;
      await sleep(wait);
      continue;
    }
    const stateRefusal = answer.status === 400 && !(answer.json as any)?.errors?.some?.((e: any) => e?.field);
    if (settle && stateRefusal && Date.now() + pause < settleUntil && !s.outOfTime()) { await sleep(pause); continue; }
    break;
  }
  answer.retries = retries;
  s.rateLimitedInARow = answer.status === 429 ? s.rateLimitedInARow + 1 : 0;
  if (s.rateLimitedInARow === 20) s.notes.push('20 requests in a row were refused with 429 even after waiting their Retry-After: the kit stopped retrying');
  const record: RequestRecord = { label, kind, method: request.method, url: request.url, status: answer.status ?? null, ms: Math.round(answer.ms), checks: markInjected([...checkAnswer(s.ctx, schemaOp, answer), ...extra(answer)], answer) };
  if (record.checks.some((c) => c.outcome === 'fail')) record.curl = s.toCurl(request);
  into.push(record);
  noteSeenStatus(s.results.get(schemaOp)?.seenStatuses ?? [], answer.status);
  if (s.stateful && is2xx(answer.status) && answer.json !== undefined) s.harvest.record(answer.json, input.params.path);
  const unusable = answer.error !== undefined;
  s.transportFailures = unusable ? s.transportFailures + 1 : 0;
  if (!probe) s.streaks.set(schemaOp.id, unusable ? (s.streaks.get(schemaOp.id) ?? 0) + 1 : 0);
  if (s.transportFailures >= (options.maxTransportFailures ?? 5) && !cleanup) {
    s.abort ??= `the target is unusable: ${s.transportFailures} requests in a row got no usable answer (last: ${request.method} ${request.url}: ${answer.error})`;
    throw new Stop();
  }
  // A target that throttles or fails every valid request (429 or 503 throughout) cannot be
  // checked: the run ends at once rather than waiting out each Retry-After.
  if ((kind === 'positive' || kind === 'setup') && !cleanup && answer.status !== undefined) {
    s.refusedInARow = refusedStatus(answer.status) ? s.refusedInARow + 1 : 0;
    if (s.refusedInARow >= (options.maxRefusedInARow ?? 5)) {
      s.abort ??= `the target is unusable: ${s.refusedInARow} valid requests in a row were answered 429 or 503 (last: ${request.method} ${request.url}: ${describeRefusal(answer)}): it throttles or fails every request`;
      throw new Stop();
    }
  }
  return { answer, request: record };
}

/** One request through a URL the target handed out: no token, the Content-Type it was made for. */
export async function useUrl(s: RunState, use: UrlUse, into: RequestRecord[], label: string, kind: RequestKind, judge: (answer: Answer) => Check[], cleanup: boolean): Promise<Answer> {
  if (!cleanup && s.outOfTime()) throw new Stop();
  const request: OutgoingRequest = {
    method: use.method, url: use.url, headers: [['accept', '*/*'], ...(use.contentType ? [['content-type', use.contentType] as [string, string]] : [])],
    body: use.payload === undefined ? undefined : Buffer.from(use.payload),
  };
  if (s.dry) {
    s.planned.push(`${use.method} ${use.url}${use.contentType ? `  [content-type: ${use.contentType}]` : ''}  (${label})`);
    into.push({ label, kind, method: use.method, url: use.url, status: null, checks: [] });
    return { status: 200, headers: {}, mediaType: '', text: use.payload ?? '', ms: 0, bytes: 0 };
  }
  const answer = await send(request, s.transport);
  const checks = judge(answer);
  into.push({ label, kind, method: use.method, url: use.url, status: answer.status ?? null, ms: Math.round(answer.ms), checks, curl: checks.some((c) => c.outcome === 'fail') ? s.toCurl(request) : undefined });
  return answer;
}
