// Types of the parts of @cloudapi/spec's JavaScript helpers that the server uses.
declare module '@cloudapi/spec/walk' {
  export interface WalkedParameter {
    name: string;
    in: 'path' | 'query' | 'header' | 'cookie';
    required?: boolean;
    schema?: unknown;
    example?: unknown;
    examples?: Record<string, unknown>;
    pointer: string;
  }
  export interface WalkedOperation {
    path: string;
    method: 'get' | 'put' | 'post' | 'delete' | 'patch';
    operation: Record<string, any>;
    pointer: string;
    parameters: WalkedParameter[];
  }
  export interface WalkedBody {
    kind: 'request' | 'response';
    status: string | null;
    mediaType: string;
    media: Record<string, any>;
    schemaPointer: string;
  }
  export const METHODS: string[];
  export function operations(document: unknown): Iterable<WalkedOperation>;
  export function bodiesOf(document: unknown, op: WalkedOperation): WalkedBody[];
  export function deref(document: unknown, node: unknown, pointer?: string): [any, string];
  export function parameterExamples(document: unknown, parameter: WalkedParameter): unknown[];
  export function mediaExamples(document: unknown, media: Record<string, any>): { name: string; value: unknown; summary?: string }[];
}

declare module '@cloudapi/spec/schema-views' {
  import type Ajv2020 from 'ajv/dist/2020.js';
  export function createAjv(options?: Record<string, unknown>): Ajv2020;
  export function viewDocument(document: unknown, view: 'request' | 'response', options?: { remove?: boolean }): any;
  export function pointerGet(document: unknown, pointer: string): any;
  export function pointerOf(...parts: (string | number)[]): string;
  export function escapePointerPart(part: string | number): string;
  export function createSchemaViews(document: unknown): {
    validate(view: 'request' | 'response', pointer: string, value: unknown): { valid: boolean; errors: { path: string; message: string; keyword: string }[] };
    undeclared(view: 'request' | 'response', pointer: string, value: unknown): string[];
    schemaAt(pointer: string): any;
    resolve(node: unknown): any;
  };
}
