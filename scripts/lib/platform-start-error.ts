import type { ServiceName } from './platform-layout.ts';

/** An error from startPlatform; `output` holds the failing child's last lines. */
export class PlatformStartError extends Error {
  override name = 'PlatformStartError';
  service: ServiceName | undefined;
  output: string[];
  constructor(message: string, service: ServiceName | undefined, output: string[]) {
    super(output.length > 0 ? `${message}\n--- last output of ${service} ---\n${output.join('\n')}` : message);
    this.service = service;
    this.output = output;
  }
}
