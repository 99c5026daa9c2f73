import { appBuild } from '../../tsup.base.ts';

/**
 * zod's messages in English only: its index of 60 translations, a third of the bundle that every
 * `repa` process reads (about 15 ms of CPU a process, measured), is left out; the CLI uses none.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build: { onLoad: (filter: { filter: RegExp }, load: () => { contents: string }) => void }) {
    build.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({
      contents: "export { default as en } from './en.js';\n",
    }));
  },
};

// The protocol and zod in the bundle: a command loads one file instead of resolving and linking a
// hundred modules (zod's), which every `repa` process paid at start.
export default appBuild({
  noExternal: ['@repa/protocol', 'zod'],
  esbuildPlugins: [zodEnglishOnly],
});
