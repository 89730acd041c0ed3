/** The command-line tool's bundle inside the standalone executable, by its asset name (see executable-main.ts). */
export const CLI_ASSET = 'cli.js';

/** The executable's third-party notices (its bundles' packages and Node), which it writes beside itself in a registry or mirror. */
export const NOTICES_ASSET = 'THIRD_PARTY_NOTICES.txt';
