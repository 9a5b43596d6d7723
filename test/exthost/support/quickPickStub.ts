// Stands in for the user at a quick pick a command creates (vscode.window.createQuickPick): the test sees the
// rows, the title and the busy flag as the command sets them, and accepts a row, presses a title button or
// dismisses it. `restore()` puts the window's own createQuickPick back.
import * as vscode from 'vscode';

export class FakeQuickPick<T extends vscode.QuickPickItem> {
  title: string | undefined;
  placeholder: string | undefined;
  buttons: readonly vscode.QuickInputButton[] = [];
  matchOnDescription = false;
  matchOnDetail = false;
  activeItems: readonly T[] = [];
  disposed = false;
  private rows: readonly T[] = [];
  private loading = false;
  private readonly accepted = new vscode.EventEmitter<void>();
  private readonly hidden = new vscode.EventEmitter<void>();
  private readonly triggered = new vscode.EventEmitter<vscode.QuickInputButton>();
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly typed = new vscode.EventEmitter<string>();
  private text = '';
  readonly onDidAccept = this.accepted.event;
  readonly onDidChangeValue = this.typed.event;
  readonly onDidHide = this.hidden.event;
  readonly onDidTriggerButton = this.triggered.event;

  get items(): readonly T[] {
    return this.rows;
  }
  set items(items: readonly T[]) {
    this.rows = items;
    this.activeItems = items.filter((item) => item.kind !== vscode.QuickPickItemKind.Separator).slice(0, 1);
    this.changed.fire();
  }
  get busy(): boolean {
    return this.loading;
  }
  set busy(busy: boolean) {
    this.loading = busy;
    this.changed.fire();
  }
  get value(): string {
    return this.text;
  }
  set value(value: string) {
    this.text = value;
  }
  /** The user types `text` into the filter box (replacing what was there). */
  type(text: string): void {
    this.text = text;
    this.typed.fire(text);
  }
  show(): void {}
  dispose(): void {
    this.disposed = true;
  }

  /** Resolves once the pick is not busy and has rows (after a load, or a reload the test started). */
  settled(): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (this.loading || this.rows.length === 0) return false;
        subscription.dispose();
        resolve();
        return true;
      };
      const subscription = this.changed.event(check);
      check();
    });
  }
  accept(label: string): void {
    const row = this.rows.find((item) => item.label === label);
    if (!row) throw new Error(`no row "${label}" in ${JSON.stringify(this.rows.map((item) => item.label))}`);
    this.activeItems = [row];
    this.accepted.fire();
  }
  press(tooltip: string): void {
    const button = this.buttons.find((b) => b.tooltip === tooltip);
    if (!button) throw new Error(`no button "${tooltip}"`);
    this.busy = true;
    this.triggered.fire(button);
  }
  hide(): void {
    this.hidden.fire();
  }
}

export interface QuickPickStub {
  /** The picks created since the stub was installed, oldest first. */
  readonly created: FakeQuickPick<vscode.QuickPickItem>[];
  /** The next pick the command creates. */
  next(): Promise<FakeQuickPick<vscode.QuickPickItem>>;
  restore(): void;
}

export function stubQuickPick(): QuickPickStub {
  const window = vscode.window as unknown as { createQuickPick: () => unknown };
  const original = window.createQuickPick;
  const created: FakeQuickPick<vscode.QuickPickItem>[] = [];
  const waiting: ((pick: FakeQuickPick<vscode.QuickPickItem>) => void)[] = [];
  window.createQuickPick = () => {
    const pick = new FakeQuickPick<vscode.QuickPickItem>();
    created.push(pick);
    waiting.shift()?.(pick);
    return pick;
  };
  if (window.createQuickPick === original) throw new Error('vscode.window.createQuickPick cannot be replaced in this extension host');
  return {
    created,
    next: () => new Promise((resolve) => waiting.push(resolve)),
    restore() {
      window.createQuickPick = original;
    },
  };
}
