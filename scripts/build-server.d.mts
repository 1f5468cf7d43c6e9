/** Builds apps/server/dist (main.js, cli.js: the server; launcher.js: the server with the demo fleet); answers how long it took in milliseconds. */
export function buildServer(): Promise<number>;
/** The directory the build writes. */
export const SERVER_DIST: string;
