/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** JSON object overriding service bases at build time, e.g. {"device":"/gw/device"}. */
  readonly VITE_NEST_BASES?: string;
}
