// Phase: the exchange of one request. Builds it, sends it (or lists it in a dry run), waits out a
// 429 and a refusal for the resource's state, checks the answer, records it, and keeps the run's
// counts of unusable answers: an operation that gave none twice is not asked again, and five in
// a row (or every valid request throttled or failing) end the run.
import { pointerGet } from '@cloudapi/spec/schema-views';
import { checkAnswer, excerpt, is2xx, successSchemaPointer } from '../checks/answers.js';
import { type Check, skip } from '../checks/outcome.js';
import type { RequestKind, RequestRecord } from '../run/types.js';
import { type Answer, type OutgoingRequest, send } from '../transport/http.js';
import type { Operation } from '../model/operations.js';
import type { ExchangeView, Resource } from '../model/resources.js';
import type { UrlUse } from './objects.js';
import { type Auth, type BodyValue, buildRequest, type Params } from '../transport/requests.js';
import { type Ledger, Stop } from '../run/ledger.js';
import type { Plan } from '../run/plan.js';
import { retryAfterMs, sleep } from '../transport/timing.js';
import { markInjected } from '../checks/traffic-headers.js';
import { noteSeenStatus } from '../checks/status-coverage.js';

export const bodyValue = (body: Operation['body'], value: unknown): BodyValue | null => (body ? { mediaType: body.mediaType, value, binaryFields: body.binaryFields, encoding: body.encoding } : null);

/** A request and its answer as the links' runtime expressions read them. */
export const exchangeView = (params: Params, body: unknown, answer: Answer): ExchangeView => ({
  request: { path: params.path, query: params.query, headers: {}, body },
  response: { body: answer.json, headers: answer.headers },
});

/** A request body example; `renamed`: the same with the run's names, sent when `value`'s names are taken. */
export interface ExampleBody { name: string; value: unknown; renamed?: unknown }
/** What an operation's requests are built from: its parameters, what it addresses, its valid bodies. */
export interface Prepared { params: Params; owner?: Resource; bodies: ExampleBody[]; body: Operation['body'] }

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
function plannedLine(plan: Plan, request: OutgoingRequest, label: string): string {
  const auth = request.headers.filter(([n]) => n === 'authorization').map(([, v]) => `  [authorization: ${plan.redact(v)}]`).join('');
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

export async function exchange(plan: Plan, ledger: Ledger, schemaOp: Operation, into: RequestRecord[], label: string, kind: RequestKind, input: ExchangeInput, extra: (a: Answer) => Check[], { cleanup = false, settle = false, probe = false }: ExchangeFlags = {}): Promise<Sent> {
  const { settings } = plan;
  if (!cleanup && ledger.outOfTime()) throw new Stop();
  const request = await buildRequest({ baseUrl: plan.settings.baseUrl, method: schemaOp.method, path: schemaOp.path, params: input.params, body: input.body, auth: input.auth });
  if (plan.settings.dry) {
    ledger.planned.push(plannedLine(plan, request, label));
    const record: RequestRecord = { label, kind, method: request.method, url: request.url, status: null, checks: [] };
    into.push(record);
    return { answer: dryAnswer(plan.document, schemaOp), request: record, dry: true };
  }
  // An operation that gave no usable answer twice in a row is not asked again: a hang costs a
  // timeout each time, and one broken operation does not make the target unusable.
  if (!cleanup && (ledger.streaks.get(schemaOp.id) ?? 0) >= 2) {
    const record: RequestRecord = { label, kind, method: request.method, url: request.url, status: null, checks: [skip('not sent', `${schemaOp.id} gave no usable answer twice in a row`)] };
    into.push(record);
    return { answer: { headers: {}, mediaType: '', text: '', ms: 0, bytes: 0, error: 'not sent' }, request: record };
  }
  let answer: Answer;
  let retries = 0;
  const settleUntil = Date.now() + (settle ? plan.settleMs : 0);
  for (let pause = 200; ; pause = Math.min(pause * 2, 2000)) {
    answer = await send(request, plan.settings.transport);
    // A Retry-After longer than the kit waits (10 s) is not waited out early: the answer stands.
    const wait = answer.status === 429 ? retryAfterMs(answer, Infinity) : Infinity;
    if (wait <= settings.maxRetryAfterMs && retries < settings.maxRetries && ledger.rateLimitedInARow < 20 && !ledger.outOfTime()) {
      retries++;
      await sleep(wait);
      continue;
    }
    const stateRefusal = answer.status === 400 && !(answer.json as any)?.errors?.some?.((e: any) => e?.field);
    if (settle && stateRefusal && Date.now() + pause < settleUntil && !ledger.outOfTime()) { await sleep(pause); continue; }
    break;
  }
  answer.retries = retries;
  ledger.rateLimitedInARow = answer.status === 429 ? ledger.rateLimitedInARow + 1 : 0;
  if (ledger.rateLimitedInARow === 20) ledger.notes.push('20 requests in a row were refused with 429 even after waiting their Retry-After: the kit stopped retrying');
  const record: RequestRecord = { label, kind, method: request.method, url: request.url, status: answer.status ?? null, ms: Math.round(answer.ms), checks: markInjected([...checkAnswer(plan.ctx, schemaOp, answer), ...extra(answer)], answer) };
  if (record.checks.some((c) => c.outcome === 'fail')) record.curl = plan.toCurl(request);
  into.push(record);
  noteSeenStatus(ledger.results.get(schemaOp)?.seenStatuses ?? [], answer.status);
  if (plan.stateful && is2xx(answer.status) && answer.json !== undefined) ledger.harvest.record(answer.json, input.params.path);
  const unusable = answer.error !== undefined;
  ledger.transportFailures = unusable ? ledger.transportFailures + 1 : 0;
  if (!probe) ledger.streaks.set(schemaOp.id, unusable ? (ledger.streaks.get(schemaOp.id) ?? 0) + 1 : 0);
  if (ledger.transportFailures >= settings.maxTransportFailures && !cleanup) {
    ledger.abort ??= `the target is unusable: ${ledger.transportFailures} requests in a row got no usable answer (last: ${request.method} ${request.url}: ${answer.error})`;
    throw new Stop();
  }
  // A target that throttles or fails every valid request (429 or 503 throughout) cannot be
  // checked: the run ends at once rather than waiting out each Retry-After.
  if ((kind === 'positive' || kind === 'setup') && !cleanup && answer.status !== undefined) {
    ledger.refusedInARow = refusedStatus(answer.status) ? ledger.refusedInARow + 1 : 0;
    if (ledger.refusedInARow >= settings.maxRefusedInARow) {
      ledger.abort ??= `the target is unusable: ${ledger.refusedInARow} valid requests in a row were answered 429 or 503 (last: ${request.method} ${request.url}: ${describeRefusal(answer)}): it throttles or fails every request`;
      throw new Stop();
    }
  }
  return { answer, request: record };
}

/** One request through a URL the target handed out: no token, the Content-Type it was made for. */
export async function useUrl(plan: Plan, ledger: Ledger, use: UrlUse, into: RequestRecord[], label: string, kind: RequestKind, judge: (answer: Answer) => Check[], cleanup: boolean): Promise<Answer> {
  if (!cleanup && ledger.outOfTime()) throw new Stop();
  const request: OutgoingRequest = {
    method: use.method, url: use.url, headers: [['accept', '*/*'], ...(use.contentType ? [['content-type', use.contentType] as [string, string]] : [])],
    body: use.payload === undefined ? undefined : Buffer.from(use.payload),
  };
  if (plan.settings.dry) {
    ledger.planned.push(`${use.method} ${use.url}${use.contentType ? `  [content-type: ${use.contentType}]` : ''}  (${label})`);
    into.push({ label, kind, method: use.method, url: use.url, status: null, checks: [] });
    return { status: 200, headers: {}, mediaType: '', text: use.payload ?? '', ms: 0, bytes: 0 };
  }
  const answer = await send(request, plan.settings.transport);
  const checks = judge(answer);
  into.push({ label, kind, method: use.method, url: use.url, status: answer.status ?? null, ms: Math.round(answer.ms), checks, curl: checks.some((c) => c.outcome === 'fail') ? plan.toCurl(request) : undefined });
  return answer;
}
