/** A setting that cannot work: the process refuses to start, naming the variable and why. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
