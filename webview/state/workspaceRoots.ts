// The workspace the chat shows paths relative to, as the host's last snapshot said. One per page (like the
// clock in ticker.ts): paths show in agent markdown too, which holds no store, and every path re-renders when
// the folders change.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { WorkspaceRoots } from '../../src/protocol/webviewMessages';

let current: WorkspaceRoots = { folders: [] };
const listeners = new Set<() => void>();

export function workspaceRoots(): WorkspaceRoots {
  return current;
}

export function setWorkspaceRoots(roots: WorkspaceRoots): void {
  if (JSON.stringify(roots) === JSON.stringify(current)) return;
  current = roots;
  for (const listener of [...listeners]) listener();
}

/** Re-renders its host when the workspace folders change. */
export class WorkspaceRootsWatch implements ReactiveController {
  private readonly update = (): void => this.host.requestUpdate();

  constructor(private readonly host: ReactiveControllerHost) {
    host.addController(this);
  }

  hostConnected(): void {
    listeners.add(this.update);
  }

  hostDisconnected(): void {
    listeners.delete(this.update);
  }
}
