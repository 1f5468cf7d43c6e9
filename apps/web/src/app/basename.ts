/** The router's basename: the console is served under /nest/. */
export const BASENAME = '/nest';
