// Types of the spec package's plain-JavaScript helpers that the kit uses (`spec/lib/*.mjs`).
declare module '@cloudapi/spec/schema-views' {
  export interface SchemaError { path: string; schemaPath: string; keyword: string; params: Record<string, any>; message: string }
  export interface SchemaViews {
    document: any;
    validate(view: 'request' | 'response', pointer: string, value: unknown): { valid: boolean; errors: SchemaError[] };
    undeclared(view: 'request' | 'response', pointer: string, value: unknown): string[];
    schemaAt(pointer: string): any;
    resolve(node: any): any;
  }
  export function createSchemaViews(document: any): SchemaViews;
  export function pointerGet(document: any, pointer: string): any;
  export function pointerOf(...parts: (string | number)[]): string;
  export function escapePointerPart(part: string | number): string;
}

declare module '@cloudapi/spec/walk' {
  export interface WalkedParameter { name: string; in: string; required?: boolean; schema?: any; example?: unknown; examples?: Record<string, any>; pointer: string; [key: string]: any }
  export interface WalkedOperation { path: string; method: string; operation: any; pointer: string; parameters: WalkedParameter[] }
  export interface WalkedBody { kind: 'request' | 'response'; status: string | null; mediaType: string; media: any; schemaPointer: string }
  export const METHODS: string[];
  export function deref(document: any, node: any, pointer?: string): [any, string];
  export function operations(document: any): Generator<WalkedOperation>;
  export function parameterExamples(document: any, parameter: WalkedParameter): unknown[];
  export function mediaExamples(document: any, media: any): { name: string; value: any; summary?: string }[];
  export function bodiesOf(document: any, op: WalkedOperation): WalkedBody[];
}
