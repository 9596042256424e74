// How long other clients wait while one client sends the largest valid requests: the longest
// arrays the spec allows (a new tag put on 500 volumes; volumes created and updated with 100 tags
// of 50 characters). One client sends them back to back for `durationMs`; another asks
// `GET /v4/regions` every `everyMs` and times each answer. Used by the watchdog test
// (test/core/watchdog.test.ts) and by `npm run bench:server`.

const TAGS_PER_OBJECT = 100;
const IDS_PER_TAG = 500;

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** Labels of 50 characters, distinct per `round`. */
const longLabels = (round) => Array.from({ length: TAGS_PER_OBJECT }, (_, i) => `${round}-${i}-`.padEnd(50, 'x'));

/**
 * @param {{ baseUrl: string, token: string, durationMs?: number, idleMs?: number, everyMs?: number }} options
 * @returns {Promise<{ probes: number, p50: number, p99: number, worst: number, idle: { probes: number, p50: number, p99: number, worst: number }, heavy: { requests: number, worstMs: number, statuses: Record<string, number> } }>}
 */
export async function measureStall({ baseUrl, token, durationMs = 3000, idleMs = 1000, everyMs = 10 }) {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const send = async (method, path, body) => {
    const answer = await fetch(`${baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await answer.text();
    return { status: answer.status, body: text ? JSON.parse(text) : undefined };
  };

  // Objects for the tag to be put on: plain volumes, made eight at a time.
  const volumeIds = [];
  const makeVolumes = async () => {
    while (volumeIds.length < IDS_PER_TAG) {
      const made = await send('POST', '/volumes', { label: `stall-${volumeIds.length}-${Math.random().toString(36).slice(2, 8)}`, region: 'us-east', size: 10 });
      if (made.status !== 200) throw new Error(`set-up: a volume create answered ${made.status}: ${JSON.stringify(made.body)}`);
      volumeIds.push(made.body.id);
    }
  };
  await Promise.all(Array.from({ length: 8 }, makeVolumes));
  volumeIds.length = IDS_PER_TAG;
  await send('GET', '/regions'); // compiled and warm before timing

  const statuses = {};
  let heavyRequests = 0;
  let heavyWorst = 0;
  let stop = false;
  const heavy = async () => {
    for (let round = 0; !stop; round++) {
      const requests = [
        ['POST', '/tags', { label: `stall-tag-${round}-${Date.now()}`, volumes: volumeIds }],
        ['POST', '/volumes', { label: `stall-tagged-${round}-${Date.now()}`, region: 'us-east', size: 10, tags: longLabels(`c${round}`) }],
        ['PUT', `/volumes/${volumeIds[round % volumeIds.length]}`, { tags: longLabels(`u${round}`) }],
      ];
      for (const [method, path, body] of requests) {
        if (stop) break;
        const began = performance.now();
        const { status } = await send(method, path, body);
        heavyWorst = Math.max(heavyWorst, performance.now() - began);
        statuses[status] = (statuses[status] ?? 0) + 1;
        heavyRequests += 1;
      }
    }
  };

  const probe = async (times, forMs) => {
    const until = performance.now() + forMs;
    while (performance.now() < until) {
      const began = performance.now();
      const answer = await fetch(`${baseUrl}/regions`);
      await answer.arrayBuffer();
      if (answer.status !== 200) throw new Error(`GET /regions answered ${answer.status} during the load`);
      const took = performance.now() - began;
      times.push(took);
      await new Promise((r) => setTimeout(r, Math.max(0, everyMs - took)));
    }
  };
  const summary = (times) => {
    const sorted = [...times].sort((a, b) => a - b);
    return { probes: times.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), worst: sorted.at(-1) };
  };

  const idle = [];
  await probe(idle, idleMs);
  const loaded = [];
  const heavyDone = heavy();
  await probe(loaded, durationMs);
  stop = true;
  await heavyDone;
  return { ...summary(loaded), idle: summary(idle), heavy: { requests: heavyRequests, worstMs: heavyWorst, statuses } };
}
