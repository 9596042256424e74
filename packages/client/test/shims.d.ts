// Types of the mock, whose declarations are written only when it is packed (the spec's come
// from its build).
declare module '@cloudapi/mock' {
  export function startMock(options?: { port?: number; host?: string }): Promise<{ url: string; baseUrl: string; port: number; stop(): Promise<void> }>;
}
