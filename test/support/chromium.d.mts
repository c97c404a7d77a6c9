import type { Browser } from "playwright-core";

export type FoundChromium = { path: string } | { skip: string } | { missing: string };
export declare function inCI(env?: Record<string, string | undefined>): boolean;
export declare function findChromium(env?: Record<string, string | undefined>, candidates?: string[]): FoundChromium;
export declare const CHROMIUM_FLAGS: readonly string[];
export declare function launchChromium(found?: FoundChromium): Promise<Browser>;
