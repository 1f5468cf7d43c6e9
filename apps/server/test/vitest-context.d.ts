import 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin URL of the run's throwaway PostgreSQL (pg-global-setup.ts); each test file creates its own database. */
    pgAdminUrl: string;
    /** A DATA_DIR holding the server's keys and prebuilt basemap, copied into each test data directory (template-setup.ts). */
    dataTemplate: string;
  }
}
