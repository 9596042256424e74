// The parts of @cloudapi/contract (JavaScript) that the server's tests use.
declare module '@cloudapi/contract' {
  export function runContract(options: Record<string, unknown>): Promise<any>;
  export function formatReport(result: unknown, options?: { verbose?: boolean }): string;
}
