/** The command-line tool's bundle inside the standalone executable, by its asset name (see executable-main.ts). */
export const CLI_ASSET = 'cli.js';
