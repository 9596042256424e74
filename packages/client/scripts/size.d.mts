export declare const SIZE_BUDGET_GZIP: number;
export declare function measureSize(entry?: string): Promise<{ minified: number; gzip: number; inputs: string[] }>;
