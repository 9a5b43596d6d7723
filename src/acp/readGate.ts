// Decides what `fs/read_text_file` may read: inside the workspace folders freely, kernel and device
// filesystems never, anything else only after the user said yes (once, or for this session and this path).
import * as path from 'node:path';
import type { AccessDecision, OutsideReadQuestion } from './clientHost';
import { realFolders } from './confinedFs';
import { isInsideOrEqual, realPathOfNearestExisting, WorkspacePathError } from './workspacePaths';

/** Live views of the process and the machine (`/proc/self/environ` holds the editor's secrets). */
const SYSTEM_ROOTS = process.platform === 'win32' ? [] : ['/proc', '/sys', '/dev'];

function isSystemPath(candidate: string): boolean {
  return SYSTEM_ROOTS.some((root) => isInsideOrEqual(candidate, root)) || /^\\\\[.?]\\/.test(candidate);
}

export interface ReadGateOptions {
  readonly workspaceFolders: () => readonly string[];
  readonly ask?: (question: OutsideReadQuestion) => Promise<AccessDecision>;
  readonly agentName: string;
  readonly sessionLabel: (sessionId: string) => string | undefined;
}

export class ReadGate {
  /** Per session, the real paths the user allowed for the rest of the session. */
  private readonly granted = new Map<string, Set<string>>();

  constructor(private readonly options: ReadGateOptions) {}

  /**
   * Throws when the read is refused; otherwise returns the test the opened file's real path must pass
   * (so a link swapped in after this decision still cannot read elsewhere).
   */
  async authorize(sessionId: string, requested: string): Promise<(realPath: string) => boolean> {
    const normalised = path.resolve(requested);
    const realPath = await realPathOfNearestExisting(normalised);
    const refuse = (where: string) =>
      new WorkspacePathError('system-path', `Path "${requested}" ${where === normalised ? 'is' : `leads to ${where}, which is`} a system path; agents may not read it.`);
    if (isSystemPath(normalised)) throw refuse(normalised);
    if (isSystemPath(realPath)) throw refuse(realPath);
    const allowedFolders = await realFolders(this.options.workspaceFolders());
    const inside = (real: string) => !isSystemPath(real) && allowedFolders.some((folder) => isInsideOrEqual(real, folder));
    if (inside(realPath)) return inside;

    const allowedHere = (real: string) => inside(real) || real === realPath;
    if (this.granted.get(sessionId)?.has(realPath)) return allowedHere;
    const decision = this.options.ask
      ? await this.options.ask({ agentName: this.options.agentName, sessionId, sessionLabel: this.options.sessionLabel(sessionId), path: normalised, realPath })
      : 'deny';
    if (decision === 'deny') {
      throw new WorkspacePathError('not-allowed', `Reading "${requested}" (outside the workspace folders) was not allowed by the user.`);
    }
    if (decision === 'session') {
      const paths = this.granted.get(sessionId) ?? new Set<string>();
      paths.add(realPath);
      this.granted.set(sessionId, paths);
    }
    return allowedHere;
  }
}
