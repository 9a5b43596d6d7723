// The Subchats status bar item: working sessions, background subagents and waiting questions across agents; a click shows what waits.
import * as vscode from 'vscode';
import type { SubchatsService } from '../host/subchatsService';
import { SessionTreeWatch } from './sessionTreeWatch';
import { statusSummary } from './statusBarModel';

const UPDATE_DELAY_MS = 100;
/** While rows read working, what they read can change with time alone (a quiet agent-started turn or background child): re-read. */
const TICK_MS = 1000;

export class SubchatsStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('subchats.status', vscode.StatusBarAlignment.Left, 50);
  private readonly watch = new SessionTreeWatch();
  private readonly disposables: vscode.Disposable[] = [];
  private timer: NodeJS.Timeout | undefined;
  private tick: NodeJS.Timeout | undefined;

  constructor(private readonly service: SubchatsService) {
    this.item.name = vscode.l10n.t('Subchats');
    this.item.command = 'subchats.showWaiting';
    this.watch.sync(service.list());
    this.disposables.push(
      service.onDidChangeRuntimes(() => {
        this.watch.sync(service.list());
        this.schedule();
      }),
      service.onDidChangeSessions(({ runtime, changes }) => {
        for (const change of changes) this.watch.note(runtime, change.sessionId);
        this.schedule();
      }),
    );
    this.update();
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.tick) clearTimeout(this.tick);
    for (const disposable of this.disposables) disposable.dispose();
    this.item.dispose();
  }

  private schedule(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.update();
    }, UPDATE_DELAY_MS);
  }

  private update(): void {
    const summary = statusSummary(this.service.list(), this.watch, Date.now());
    if (summary.working + summary.background > 0) {
      this.tick ??= setTimeout(() => {
        this.tick = undefined;
        this.update();
      }, TICK_MS);
    }
    if (!summary.text) {
      this.item.hide();
      return;
    }
    this.item.text = summary.text;
    this.item.tooltip = summary.tooltip;
    this.item.accessibilityInformation = { label: summary.tooltip };
    this.item.backgroundColor = summary.waiting > 0 ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.show();
  }
}
