export declare const SIZE_BUDGET_GZIP: number;
export interface BundleSize { minified: number; gzip: number; inputs: string[] }
export declare function measureSize(entry?: string): Promise<{ own: BundleSize; whole: BundleSize }>;
