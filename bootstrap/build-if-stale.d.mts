// Types of build-if-stale.mjs (plain JavaScript: it runs before anything is compiled), for its test.
export declare const SOURCE_DIRS: readonly string[];
export declare const CONFIG_FILES: readonly string[];
export declare const STAMP: string;
export declare const ENTRY: string;
export declare const sourceHash: (root: string, compilerVersion: string) => string;
export declare const buildIfStale: (options: { root: string; compilerVersion: string; compile: () => void; log?: (message: string) => void }) => 'fresh' | 'built';
