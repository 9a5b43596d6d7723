// Stands in for the user at the notification and input-box level while a command runs: records what the
// extension asked and answers it. The extension and the tests share the extension host's `vscode.window`
// object, so a temporary replacement is what the command sees; `restore()` puts the original back.
import * as vscode from 'vscode';

type WindowMethod = 'showWarningMessage' | 'showInformationMessage' | 'showErrorMessage' | 'showInputBox';

export interface Asked {
  readonly method: WindowMethod;
  readonly message: string;
  readonly modal: boolean;
  /** A modal's detail text, when it has one. */
  readonly detail?: string;
  readonly items: readonly string[];
}

export interface WindowStub {
  readonly asked: Asked[];
  restore(): void;
}

/** `answers[method]` picks the reply (an item title, input text, or undefined as a dismissal). */
export function stubWindow(answers: Partial<Record<WindowMethod, (asked: Asked) => string | undefined>>): WindowStub {
  const window = vscode.window as unknown as Record<WindowMethod, (...args: unknown[]) => Thenable<unknown>>;
  const originals = new Map<WindowMethod, (...args: unknown[]) => Thenable<unknown>>();
  const asked: Asked[] = [];
  for (const method of Object.keys(answers) as WindowMethod[]) {
    const answer = answers[method]!;
    originals.set(method, window[method]);
    window[method] = async (...args: unknown[]) => {
      const entry = describeCall(method, args);
      asked.push(entry);
      return answer(entry);
    };
    if (window[method] === originals.get(method)) throw new Error(`vscode.window.${method} cannot be replaced in this extension host`);
  }
  return {
    asked,
    restore() {
      for (const [method, original] of originals) window[method] = original;
    },
  };
}

function describeCall(method: WindowMethod, args: unknown[]): Asked {
  if (method === 'showInputBox') {
    const options = (args[0] ?? {}) as vscode.InputBoxOptions;
    return { method, message: options.prompt ?? '', modal: false, items: [] };
  }
  const [message, ...rest] = args;
  const options = rest[0] && typeof rest[0] === 'object' && !('title' in (rest[0] as object)) ? (rest.shift() as vscode.MessageOptions) : undefined;
  const items = rest.map((item) => (typeof item === 'string' ? item : (item as vscode.MessageItem).title));
  return { method, message: String(message), modal: options?.modal === true, ...(options?.detail ? { detail: options.detail } : {}), items };
}

export interface SaveDialogStub {
  /** The options of each save dialog the extension opened. */
  readonly asked: vscode.SaveDialogOptions[];
  restore(): void;
}

/** Answers `vscode.window.showSaveDialog` with `answer(options)` (undefined: the user cancelled). */
export function stubSaveDialog(answer: (options: vscode.SaveDialogOptions) => vscode.Uri | undefined): SaveDialogStub {
  const window = vscode.window as unknown as { showSaveDialog: (options?: vscode.SaveDialogOptions) => Thenable<vscode.Uri | undefined> };
  const original = window.showSaveDialog;
  const asked: vscode.SaveDialogOptions[] = [];
  window.showSaveDialog = async (options = {}) => {
    asked.push(options);
    return answer(options);
  };
  if (window.showSaveDialog === original) throw new Error('vscode.window.showSaveDialog cannot be replaced in this extension host');
  return {
    asked,
    restore() {
      window.showSaveDialog = original;
    },
  };
}
