import { runInNewContext } from 'node:vm';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

// The main entry and `./schemas` are what a page bundles: their whole import graphs must do without
// Node's built-ins, which live behind `@repa/protocol/node`.

/** An entry bundled as a browser would take it (fails on any `node:` import). */
async function bundleForBrowser(entry = './index.ts'): Promise<string> {
  const result = await build({
    entryPoints: [new URL(entry, import.meta.url).pathname],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    globalName: 'repaProtocol',
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]?.text ?? '';
}

describe('@repa/protocol (the main entry)', () => {
  it('bundles for the browser and loads in a context without process, Buffer or require', async () => {
    const code = await bundleForBrowser();
    const context: Record<string, unknown> = {};
    runInNewContext(`${code}\nglobalThis.loaded = repaProtocol;`, context);
    const loaded = context.loaded as Record<string, unknown>;
    expect(typeof loaded.createRepaClient).toBe('function');
    expect(typeof loaded.webSocketTransport).toBe('function');
    const RepaError = loaded.RepaError as typeof import('./index.js').RepaError;
    expect(RepaError.fromWire({ code: 'busy', message: 'b', fix: 'f' }).code).toBe('busy');
    for (const name of ['process', 'Buffer', 'require']) {
      expect(runInNewContext(`typeof ${name}`, context)).toBe('undefined');
    }
  });
});

describe('@repa/protocol/schemas', () => {
  it('bundles for the browser and checks a value without Node built-ins', async () => {
    const context: Record<string, unknown> = {};
    runInNewContext(
      `${await bundleForBrowser('./schemas.ts')}\nglobalThis.loaded = repaProtocol;`,
      context,
    );
    const loaded = context.loaded as typeof import('./schemas.js');
    expect(loaded.thinkingLevelSchema.safeParse('high').success).toBe(true);
    expect(loaded.thinkingLevelSchema.safeParse('loud').success).toBe(false);
  });
});
