import type * as Host from '@repa/host';

let host: Promise<typeof Host> | undefined;

/**
 * `@repa/host`, and with it Pi, loaded at its first use: the daemon accepts connections (and
 * answers what needs no session) without compiling Pi's modules first.
 */
export function loadHost(): Promise<typeof Host> {
  host ??= import('@repa/host');
  return host;
}
