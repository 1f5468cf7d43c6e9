/**
 * Case volumes of property and fuzz tests. `fuzzRuns(n)` is n by default and ten times n when TEST_FUZZ=nightly:
 * the default run is sized to finish quickly and still finds every counterexample seen so far (those are also
 * kept as fixed cases); the nightly run looks further. Read without Node's types, so browser-side packages
 * (geo, formats) can import it.
 */
const env = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env ?? {};

export const NIGHTLY = env.TEST_FUZZ === 'nightly';

/** The number of generated cases a property or fuzz test draws. */
export const fuzzRuns = (n: number): number => (NIGHTLY ? n * 10 : n);
