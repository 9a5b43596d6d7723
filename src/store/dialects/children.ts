// What the dialect plug-ins do to a child they learn about beyond the ordinary updates: find the child of a
// launching call, the one root a child without a named parent can be under, and the details agents report.
import type { SessionRecord } from '../model';
import type { ReducerContext } from '../reducerContext';

/** The child a tool call seen on this wire session launched. */
export function childOfCall(parts: ReducerContext, wireId: string, toolCallId: string): SessionRecord | undefined {
  const owner = parts.core.session(parts.tree.toolOwner(wireId, toolCallId) ?? wireId);
  const childId = owner?.toolCalls[toolCallId]?.childSessionId;
  return childId ? parts.core.session(parts.tree.currentId(childId)) : undefined;
}

/** The model the agent names for a child (kept in its `meta`), and whether it works in the background. */
export function describeChild(parts: ReducerContext, child: SessionRecord, details: { readonly model?: string; readonly background?: boolean; readonly agentId?: string }): void {
  if (details.model && child.meta?.['model'] !== details.model) child.meta = { ...child.meta, model: details.model };
  if (details.agentId && child.meta?.['agentId'] !== details.agentId) child.meta = { ...child.meta, agentId: details.agentId };
  if (details.background && !child.background && child.state.state !== 'idle') child.background = true;
  parts.core.touch(child);
}

/** The one root a child whose parent the agent does not name belongs under: the only root, or the only one prompted. */
export function onlyRoot(parts: ReducerContext): SessionRecord | undefined {
  const roots = parts.tree.roots.map((id) => parts.core.session(id)).filter((s): s is SessionRecord => s !== undefined);
  if (roots.length === 1) return roots[0];
  const prompted = roots.filter((s) => s.activePromptId !== null);
  return prompted.length === 1 ? prompted[0] : undefined;
}
