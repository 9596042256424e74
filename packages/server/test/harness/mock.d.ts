// The parts of @cloudapi/mock (JavaScript) that the server's tests use: its validating proxy.
declare module '@cloudapi/mock' {
  export interface ProxyStats {
    exchanges: number;
    responseViolations: number;
    acceptedInvalid: number;
    refusedInvalid: number;
    violations: number;
  }
  export function startMock(options: { port?: number; host?: string; proxy?: string; log?: (line: string) => void }): Promise<{
    baseUrl: string;
    stop(): Promise<void>;
    stats(): ProxyStats;
    violations(): string[];
  }>;
}
