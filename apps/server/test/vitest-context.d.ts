import 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin URL of the throwaway PostgreSQL (server-pg project); each test file creates its own database. */
    pgAdminUrl: string;
  }
}
