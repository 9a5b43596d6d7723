// A tool call as the chat may receive it. Its raw values (rawInput, rawOutput, _meta, content of unknown kinds)
// are the agent's, nested as deep as it likes; VS Code writes every post to the webview as JSON, which recurses,
// so a value nested 100,000 levels deep made the whole chat fail to update. Such a value is replaced by a note
// (the transcript and the history keep it whole); a call whose values are all shallow goes as it is.
import type { ToolCallRecord } from '../store/model';
import { t } from '../presentation/l10n';

/** Far deeper than any real tool input or output, far below what JSON.stringify's stack takes. */
const MAX_VIEW_DEPTH = 64;

/** Raw values already measured: records keep the same value objects until the agent replaces them. */
const measured = new WeakMap<object, boolean>();

export function viewSafeToolCall(call: ToolCallRecord): ToolCallRecord {
  const content = call.content.some((item) => !isShallow(item)) ? call.content.map((item) => (isShallow(item) ? item : { type: 'unshown', note: tooDeep() })) : call.content;
  const deep = !isShallow(call.rawInput) || !isShallow(call.rawOutput) || !isShallow(call.meta) || !isShallow(call.capabilities);
  if (!deep && content === call.content) return call;
  return {
    ...call,
    content,
    ...(call.rawInput !== undefined ? { rawInput: isShallow(call.rawInput) ? call.rawInput : tooDeep() } : {}),
    ...(call.rawOutput !== undefined ? { rawOutput: isShallow(call.rawOutput) ? call.rawOutput : tooDeep() } : {}),
    ...(call.meta !== undefined ? { meta: isShallow(call.meta) ? call.meta : (tooDeep() as unknown as Record<string, unknown>) } : {}),
    ...(call.capabilities !== undefined ? { capabilities: isShallow(call.capabilities) ? call.capabilities : null } : {}),
  };
}

function tooDeep(): string {
  return t('[not shown: nested more than {0} levels deep; the transcript has it in full]', MAX_VIEW_DEPTH);
}

/** Whether no path in `value` goes deeper than MAX_VIEW_DEPTH (iterative: the value is the agent's). */
function isShallow(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  const known = measured.get(value);
  if (known !== undefined) return known;
  let shallow = true;
  const stack: [object, number][] = [[value, 1]];
  const seen = new Set<object>();
  while (stack.length > 0 && shallow) {
    const [node, depth] = stack.pop()!;
    if (depth > MAX_VIEW_DEPTH) shallow = false;
    else if (!seen.has(node)) {
      seen.add(node);
      for (const child of Object.values(node)) if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  measured.set(value, shallow);
  return shallow;
}
