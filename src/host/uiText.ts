// Agent text on its way into VS Code UI (notifications, quick picks, input boxes, tree items, terminal names):
// VS Code turns `[label](command:…)` into a clickable link and `$(icon)` into an icon there, so such text is
// made inert; tooltips are markdown, where every punctuation character an agent sent is escaped instead.
import { plainText } from '../presentation';

export function inertUiText(text: string, max = 200): string {
  const flat = plainText(text).replace(/\]\s*\(/g, '] (').replace(/\$\(/g, '$ (');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * Agent text as literal markdown (MarkdownString tooltips): CommonMark lets any ASCII punctuation be
 * backslash-escaped, so no link, image, autolink, HTML, entity, emphasis or icon can start in it.
 */
export function markdownText(text: string): string {
  return plainText(text).replace(/\s*\n\s*/g, ' ').replace(/[!-/:-@[-`{-~]/g, (c) => `\\${c}`);
}

/** An error for a toast: it often carries the agent's JSON-RPC error message. */
export function toastError(error: unknown): string {
  return inertUiText(error instanceof Error ? error.message : String(error), 400);
}

/** The name of the read-only terminal that mirrors a command an agent runs. */
export function mirroredTerminalName(agentName: string, command: string): string {
  return inertUiText(`${agentName}: ${command}`, 80);
}
