// Sizes as the commands print them (dhi serve's banner, the benchmarks' lines).

/** `bytes` in megabytes of 2^20 bytes with `digits` decimals: "12.3 MB". */
export const megabytes = (bytes: number, digits = 1): string => `${(bytes / 1_048_576).toFixed(digits)} MB`;
