import type * as Host from '@repa/host';

let host: Promise<typeof Host> | undefined;
/** The agent and app dirs of every application of this process, hidden from every space. */
const machine: Host.MachineFolders[] = [];

/**
 * `@repa/host`, and with it Pi, loaded at its first use: the daemon accepts connections (and
 * answers what needs no session) without compiling Pi's modules first. Before any use, the folders
 * given to {@link hideMachineFoldersOnLoad} are hidden from every space (design R69).
 */
export function loadHost(): Promise<typeof Host> {
  host ??= import('@repa/host');
  return host.then((loaded) => {
    for (const folders of machine.splice(0)) loaded.hideMachineFolders(folders);
    return loaded;
  });
}

/** Hides Pi's agent dir and Repa's app dir from every space, before the host's first use. */
export function hideMachineFoldersOnLoad(folders: Host.MachineFolders): void {
  machine.push(folders);
}

/** Pi's agent dir: the one given, else Pi's own (`$PI_CODING_AGENT_DIR`, else `~/.pi/agent`). */
export async function piAgentDir(agentDir: string | undefined): Promise<string> {
  return agentDir ?? (await loadHost()).defaultAgentDir();
}
