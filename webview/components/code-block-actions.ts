// The toolbar over a code block in an answer: Copy, Insert at Cursor, Insert into Terminal, and Apply to the
// file the block names (added once the block is whole; see codeBlockFile). Plain DOM, because the markdown
// element that owns code blocks is not Lit. The buttons only carry which action and which block; the
// markdown element gathers the block's text and asks the host.
import { displayPath, t } from '../../src/presentation';
import type { CodeBlockAction } from '../../src/protocol/webviewMessages';
import { workspaceRoots } from '../state/workspaceRoots';

/** The attribute naming a code block (its ordinal in the message) on its wrapper and toolbar. */
export const CODE_BLOCK_ATTRIBUTE = 'data-code-block';
const ACTION_ATTRIBUTE = 'data-code-action';

type ToolbarAction = CodeBlockAction | 'copy';

/** The toolbar's buttons, made when a block is wrapped (the words are in the user's language). */
function buttons(): readonly { readonly action: ToolbarAction; readonly icon: string; readonly label: string }[] {
  return [
    { action: 'copy', icon: 'copy', label: t('Copy code') },
    { action: 'insert', icon: 'insert', label: t('Insert at cursor') },
    { action: 'terminal', icon: 'terminal', label: t('Insert into terminal (not run)') },
  ];
}

function iconButton(action: ToolbarAction, icon: string, label: string): HTMLButtonElement {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'sc-icon-button';
  button.setAttribute(ACTION_ATTRIBUTE, action);
  button.title = label;
  button.setAttribute('aria-label', label);
  const glyph = document.createElement('span');
  glyph.className = `codicon codicon-${icon}`;
  glyph.setAttribute('aria-hidden', 'true');
  button.append(glyph);
  return button;
}

/**
 * Wraps `pre` with its toolbar when it starts a block (`ordinal` names a fenced block of the message; a block
 * inside a list has none and is its own text); a later piece of a long block is wrapped without one.
 */
export function wrapCodeBlock(pre: HTMLPreElement, ordinal: number | undefined, startsBlock: boolean): HTMLElement {
  const wrapper = document.createElement('div');
  wrapper.className = 'sc-code-block';
  if (ordinal !== undefined) wrapper.setAttribute(CODE_BLOCK_ATTRIBUTE, String(ordinal));
  pre.replaceWith(wrapper);
  if (startsBlock) {
    const toolbar = document.createElement('div');
    toolbar.className = 'sc-code-actions';
    toolbar.setAttribute('role', 'toolbar');
    toolbar.setAttribute('aria-label', t('Code block actions'));
    if (ordinal !== undefined) toolbar.setAttribute(CODE_BLOCK_ATTRIBUTE, String(ordinal));
    toolbar.append(...buttons().map(({ action, icon, label }) => iconButton(action, icon, label)));
    wrapper.append(toolbar);
  }
  wrapper.append(pre);
  return wrapper;
}

/** Adds "Apply to <path>" to the block's toolbar in `root`, once. */
export function offerApply(root: ParentNode, ordinal: number, path: string): void {
  const toolbar = root.querySelector(`.sc-code-actions[${CODE_BLOCK_ATTRIBUTE}="${ordinal}"]`);
  if (!toolbar || toolbar.querySelector(`[${ACTION_ATTRIBUTE}="apply"]`)) return;
  const shown = displayPath(path, workspaceRoots()).text;
  toolbar.append(iconButton('apply', 'git-pull-request-go-to-changes', t('Apply to {0}… (shows the change first)', shown)));
}

/** The toolbar action a click asked for, with the block it belongs to. */
export function clickedCodeAction(target: Element, within: Element): { readonly action: ToolbarAction; readonly block: Element } | undefined {
  const button = target.closest(`button[${ACTION_ATTRIBUTE}]`);
  const block = button?.closest('.sc-code-block');
  if (!button || !block || !within.contains(block)) return undefined;
  return { action: button.getAttribute(ACTION_ATTRIBUTE) as ToolbarAction, block };
}
