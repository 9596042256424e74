// What `cloudapi-server` does about an error nothing else caught: it logs the error with the ids
// of the requests being served when it happened (each answer carries its id in `x-request-id`,
// and the log lines of a request carry it as `reqId`), then exits with status 1, so that a
// supervisor (systemd `Restart=on-failure`, Docker `restart: on-failure`) starts it again. A
// process in an unknown state is not kept serving.
import type { FastifyInstance } from 'fastify';

export interface Supervision {
  /** Where the report goes (default standard error). */
  write?: (line: string) => void;
  exit?: (code: number) => void;
}

export function superviseProcess(app: FastifyInstance, { write = (line) => process.stderr.write(`${line}\n`), exit = (code) => process.exit(code) }: Supervision = {}): void {
  let failed = false;
  const fail = (kind: string) => (error: unknown) => {
    if (failed) return;
    failed = true;
    const requests = app.requestsInFlight();
    const during = requests.length
      ? `while serving ${requests.map((r) => `request ${r.id} (${r.method} ${r.url.slice(0, 200)})`).join(', ')}`
      : 'while no request was being served';
    const detail = error instanceof Error ? error.stack ?? error.message : String(error);
    try {
      app.log.fatal({ err: error, requestIds: requests.map((r) => r.id) }, `${kind} ${during}: stopping`);
    } catch { /* the report below still goes out */ }
    write(`✖ cloudapi-server: ${kind} ${during}; exiting with status 1 (run it under a restart policy: see the README)\n${detail}`);
    exit(1);
  };
  process.on('uncaughtException', fail('unexpected error'));
  process.on('unhandledRejection', fail('unhandled promise rejection'));
}
