/** An invalid configuration value: start-up stops with its one-line message naming the variable. Its own module
 * so that the settings config.ts gathers from other folders (storage/config.ts) throw it without importing
 * config.ts back. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
