// Transcript files the user opened, remembered per workspace with their connection id: after a reload they
// are opened again under the same id, so they stay in the tree and their restored chat panels find them.
import * as vscode from 'vscode';
import type { AgentRuntime, SubchatsService } from './subchatsService';

interface OpenedTranscript {
  readonly connectionId: string;
  /** The file's URI as a string. */
  readonly uri: string;
}

const KEY = 'subchats.openedTranscripts';

export class OpenedTranscripts {
  constructor(
    private readonly service: SubchatsService,
    private readonly state: vscode.Memento,
  ) {}

  /** Reads the file and lists it as a read-only connection (under `connectionId` when reopening). */
  async open(uri: vscode.Uri, connectionId?: string): Promise<AgentRuntime> {
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    const name = uri.path.split('/').pop() ?? 'transcript';
    const runtime = await this.service.openTranscript(name, text, connectionId);
    await this.state.update(KEY, [...this.list().filter((e) => e.connectionId !== runtime.id), { connectionId: runtime.id, uri: uri.toString() }]);
    return runtime;
  }

  /** Opens again what was open before the reload; a file that cannot be read any more is forgotten. */
  async restore(warn: (text: string) => void): Promise<void> {
    for (const entry of this.list()) {
      if (this.service.get(entry.connectionId)) continue;
      try {
        await this.open(vscode.Uri.parse(entry.uri, true), entry.connectionId);
      } catch (error) {
        warn(`Could not reopen the transcript ${entry.uri}: ${(error as Error).message}`);
        await this.forget(entry.connectionId);
      }
    }
  }

  async forget(connectionId: string): Promise<void> {
    await this.state.update(KEY, this.list().filter((e) => e.connectionId !== connectionId));
  }

  private list(): OpenedTranscript[] {
    const value = this.state.get<unknown>(KEY, []);
    return Array.isArray(value) ? value.filter(isOpenedTranscript) : [];
  }
}

function isOpenedTranscript(value: unknown): value is OpenedTranscript {
  const entry = value as Partial<OpenedTranscript> | null;
  return typeof entry === 'object' && entry !== null && typeof entry.connectionId === 'string' && typeof entry.uri === 'string';
}
