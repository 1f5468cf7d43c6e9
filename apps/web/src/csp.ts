import { config } from 'zod';

/**
 * The server's Content-Security-Policy forbids eval. zod (used by contracts' schemas) probes for it with
 * `new Function('')` when schemas are built, which a strict CSP reports as a violation even though zod
 * catches the failure. Turning zod's JIT off skips the probe. This module must be imported first by
 * main.tsx, before anything that loads contracts.
 */
config({ jitless: true });
