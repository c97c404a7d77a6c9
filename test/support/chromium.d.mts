export declare function inCI(env?: Record<string, string | undefined>): boolean;
export declare function findChromium(
  env?: Record<string, string | undefined>,
  candidates?: string[],
): { path: string } | { skip: string } | { missing: string };
