// One answer from an open quick pick: shows it, resolves with what its accept handler settles on (or undefined
// once it is hidden), and then disposes the pick and every listener tied to it.
import type * as vscode from 'vscode';

type AnswerablePick<T extends vscode.QuickPickItem> = Pick<vscode.QuickPick<T>, 'activeItems' | 'onDidAccept' | 'onDidHide' | 'show' | 'dispose'>;

/**
 * `onAccept` gets the highlighted row and `settle`; a pick it does not settle stays open. `listeners` are more
 * subscriptions (buttons, settings) disposed with the pick.
 */
export function quickPickAnswer<T extends vscode.QuickPickItem, R>(
  pick: AnswerablePick<T>,
  onAccept: (active: T | undefined, settle: (answer: R | undefined) => void) => void,
  listeners: readonly vscode.Disposable[] = [],
): Promise<R | undefined> {
  return new Promise((resolve) => {
    const subscriptions = [...listeners];
    const settle = (answer: R | undefined) => {
      for (const subscription of subscriptions) subscription.dispose();
      pick.dispose();
      resolve(answer);
    };
    subscriptions.push(
      pick.onDidAccept(() => onAccept(pick.activeItems[0], settle)),
      pick.onDidHide(() => settle(undefined)),
    );
    pick.show();
  });
}
