// Types of the workspace's JavaScript modules the tests use.
declare module '@cloudapi/spec/walk' {
  export interface WalkedOperation {
    path: string;
    method: string;
    operation: Record<string, any>;
    pointer: string;
    parameters: Array<Record<string, any> & { name: string; in: string; pointer: string }>;
  }
  export interface Body {
    kind: 'request' | 'response';
    status: string | null;
    mediaType: string;
    media: Record<string, any>;
    schemaPointer: string;
  }
  export function operations(document: unknown): Iterable<WalkedOperation>;
  export function bodiesOf(document: unknown, op: WalkedOperation): Body[];
  export function mediaExamples(document: unknown, media: unknown): Array<{ name: string; value: unknown; summary?: string }>;
  export function deref(document: unknown, node: unknown, pointer?: string): [any, string];
  export function parameterExamples(document: unknown, parameter: Record<string, any>): unknown[];
}

declare module '@cloudapi/spec/schema-views' {
  export function createSchemaViews(document: unknown): {
    validate(view: 'request' | 'response', pointer: string, value: unknown): { valid: boolean; errors: Array<{ message: string }> };
  };
}

declare module '@cloudapi/mock' {
  export function startMock(options?: { port?: number; host?: string }): Promise<{ url: string; baseUrl: string; port: number; stop(): Promise<void> }>;
}
