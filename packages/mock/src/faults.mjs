// Fault injection in front of Prism (FAULTS / --faults; the decisions are the shared module
// @cloudapi/spec/faults, the same as the reference server's). The mock always honours a request's
// `X-Fault` header, as it honours `Prefer`; FAULTS adds seeded faults on top.
import { createFaultInjector, describeFault, droppedAnswer, faultBody, faultHeaders, FAULT_HEADER, FaultSettingError } from '@cloudapi/spec/faults';

/**
 * @param {ReturnType<typeof import('@cloudapi/spec/faults').parseFaults>} setting
 * @param {(line: string) => void} log
 */
export function createFaultStage(setting, log) {
  const injector = createFaultInjector(setting, { honourHeader: true });
  return {
    /**
     * Applies the fault chosen for this request, if any. Returns true when the request has been
     * answered (429, 503, a cut connection, or 400 for a bad X-Fault); after latency alone it
     * returns false with `X-Fault` set on the answer to come.
     * @param {(req, res, status: number, errors: object[], options?: object) => void} answer the front layer's error answer
     */
    async intercept(req, res, op, answer) {
      let decision;
      try {
        decision = injector.decide({ operationId: op.operationId, header: req.headers[FAULT_HEADER] });
      } catch (error) {
        if (!(error instanceof FaultSettingError)) throw error;
        answer(req, res, 400, [{ reason: error.message }]);
        req.resume();
        return true;
      }
      if (!decision) return false;
      log(describeFault(decision, { operationId: op.operationId, method: req.method, url: req.url }));
      if (decision.delayMs) await new Promise((resolve) => setTimeout(resolve, decision.delayMs));
      const headers = faultHeaders(decision);
      if (!decision.fault) {
        res.setHeader(FAULT_HEADER, headers[FAULT_HEADER]);
        return false;
      }
      req.resume();
      if (decision.fault === 'drop') {
        // Headers and the start of a body, then the connection is cut.
        const { status, headers: promised, partialBody } = droppedAnswer(decision);
        res.writeHead(status, promised);
        res.write(partialBody, () => res.socket?.destroy());
        return true;
      }
      answer(req, res, Number(decision.fault), faultBody(decision).errors, { headers });
      return true;
    },
  };
}
