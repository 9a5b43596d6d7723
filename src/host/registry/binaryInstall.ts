// Installs a registry agent's binary distribution once the user has confirmed: downloads the archive (bounded),
// checks its sha256 when the registry gives one, unpacks it into a fresh folder of the extension's storage and
// returns the path of the executable the registry names. Nothing is run here.
import { createHash, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { boundedFetch } from './boundedFetch';
import type { BinaryTarget } from './registryFormat';
import { unpackArchive } from './unpackArchive';

const DOWNLOAD_LIMITS = { timeoutMs: 10 * 60 * 1000, maxBytes: 512 * 1024 * 1024 };

function folderName(text: string): string {
  return text.replace(/[^\w.-]+/g, '-').replace(/^\.+/, '') || 'agent';
}

/** Where an agent's version is unpacked: `<agentsRoot>/<id>/<version>`. */
export function installFolder(agentsRoot: string, agentId: string, version: string): string {
  return path.join(agentsRoot, folderName(agentId), folderName(version || 'unversioned'));
}

export interface BinaryInstallOptions {
  readonly download?: (url: string) => Promise<Buffer>;
}

/** Resolves with the absolute path of the executable (`target.cmd` inside `folder`). */
export async function installBinary(target: BinaryTarget, folder: string, options: BinaryInstallOptions = {}): Promise<string> {
  const archive = await (options.download ?? ((url: string) => boundedFetch(url, DOWNLOAD_LIMITS)))(target.archive);
  if (target.sha256) {
    const digest = createHash('sha256').update(archive).digest('hex');
    if (digest !== target.sha256) throw new Error(`the download's sha256 is ${digest}, not the ${target.sha256} the registry gives`);
  }
  const partial = `${folder}.partial-${randomBytes(4).toString('hex')}`;
  try {
    await unpackArchive(archive, new URL(target.archive).pathname, partial, target.cmd);
    const command = path.resolve(partial, target.cmd);
    const relative = path.relative(partial, command);
    if (relative.startsWith('..') || path.isAbsolute(relative)) throw new Error(`the registry's command ${JSON.stringify(target.cmd)} is outside the archive`);
    const stat = await fs.lstat(command).catch(() => undefined);
    if (!stat?.isFile()) throw new Error(`the archive has no file ${JSON.stringify(target.cmd)}`);
    if (process.platform !== 'win32') await fs.chmod(command, 0o755);
    await fs.rm(folder, { recursive: true, force: true });
    await fs.rename(partial, folder);
    return path.join(folder, relative);
  } finally {
    await fs.rm(partial, { recursive: true, force: true });
  }
}
