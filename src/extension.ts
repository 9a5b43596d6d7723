// Entry point: activation wires services together; everything else lives in its own module.
import * as vscode from 'vscode';

export interface SubchatsApi {
  readonly version: string;
}

export function activate(_context: vscode.ExtensionContext): SubchatsApi {
  return { version: '0.1.0' };
}

export function deactivate(): void {}
