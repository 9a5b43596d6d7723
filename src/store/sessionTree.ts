// The parent/child tree: which sessions exist, who is whose child, and the rules that keep it a tree
// (no re-parenting, no cycles, no self-parenting), plus children reconstructed from a parent's tool call.
import type { ChildEntry, SessionLink, SessionRecord, ToolCallRecord } from './model';
import { preOrder } from '../presentation/treeOrder';
import { keepInPlace } from './inPlace';
import { newSessionRecord } from './sessionRecord';
import { isToolCallOpen, stateFromToolStatus, UNCONFIRMED } from './stateRules';
import type { RecordKeeper } from './recordKeeper';
import { asString, isObject } from './wireMessage';

/** Links whose child is known only through its parent's tool call and follows that call's status. */
export const TOOL_LINKS = new Set<SessionLink>(['zed-meta', 'tool-kind', 'agentpool-meta']);

const GENERIC_TOOL_TITLES = new Set(['task', 'Task', 'Agent', 'agent', 'spawnAgent']);

export class SessionTree {
  private readonly rootIds: string[] = [];
  /**
   * Wire session id → toolCallId → the session that owns the tool call (a virtual child may own it). Nested
   * maps, not a joined key: one string less per tool call (the store keeps every call of a long session).
   */
  private readonly toolOwners = new Map<string, Map<string, string>>();
  /** toolCallId → owning session (or sessions), for dialects that name a parent tool call from another session id. */
  private readonly toolOwnerById = new Map<string, string | string[]>();
  private readonly reportedAmbiguous = new Set<string>();
  /** Parents whose transcript already shows a card entry for the child (`parent\0child`). */
  private readonly childEntries = new Set<string>();
  /** Virtual ids replaced by the real session they turned out to be (opencode's loaded child). */
  private readonly replaced = new Map<string, string>();
  private ordinal = 0;

  constructor(private readonly core: RecordKeeper) {}

  get roots(): readonly string[] {
    return this.rootIds;
  }

  /** The current id of a session that was known under another id before (or the id itself). */
  currentId(sessionId: string): string {
    return this.replaced.get(sessionId) ?? sessionId;
  }

  preOrder(startIds: readonly string[]): SessionRecord[] {
    return preOrder(startIds, (id) => this.core.session(id), (session) => session.childIds);
  }


  ancestors(sessionId: string): SessionRecord[] {
    const chain: SessionRecord[] = [];
    const seen = new Set<string>([sessionId]);
    for (let id = this.core.session(sessionId)?.parentId ?? null; id !== null && !seen.has(id); ) {
      const parent = this.core.session(id);
      if (!parent) break;
      seen.add(id);
      chain.push(parent);
      id = parent.parentId;
    }
    return chain;
  }

  rootOf(sessionId: string): SessionRecord | undefined {
    const session = this.core.session(sessionId);
    return this.ancestors(sessionId).at(-1) ?? session;
  }

  isAncestor(candidate: string, of: string): boolean {
    return candidate === of || this.ancestors(of).some((s) => s.id === candidate);
  }

  // ---- creating sessions --------------------------------------------------------------------------------

  /** A session first seen through traffic: nobody told us its state yet. */
  ensureSession(sessionId: string): SessionRecord {
    return this.core.session(sessionId) ?? this.create(sessionId, { parentId: null, parentToolCallId: null, link: 'root', origin: 'root', state: UNCONFIRMED });
  }

  /** A session the client created or attached to (session/new, load, resume): idle until a prompt runs. */
  ensureRoot(sessionId: string, cwd: string | null): SessionRecord {
    const known = this.core.sessions.has(sessionId);
    const session = this.ensureSession(sessionId);
    // A root the agent named before answering (Copilot's commands come before session/new's answer) has no
    // state of its own yet: once the client opened it, it is as idle as a new one.
    const unstated = session.parentId === null && !session.stateReported && session.state.state === 'unconfirmed' && session.activePromptId === null;
    if (!known || unstated) this.core.setState(session, { state: 'idle' }, 'client');
    if (!session.openedByClient && (session.parentId === null || session.origin === 'virtual' || TOOL_LINKS.has(session.link) || session.link === 'opaque-tool')) {
      session.openedByClient = true;
      this.core.touch(session);
    }
    if (cwd && !session.cwd) session.cwd = cwd;
    return session;
  }

  create(id: string, init: Pick<SessionRecord, 'parentId' | 'parentToolCallId' | 'link' | 'origin' | 'state'>): SessionRecord {
    const session = newSessionRecord({ id, ordinal: ++this.ordinal, ...init }, this.core.at, this.core.rev);
    this.core.sessions.set(id, session);
    this.core.noteSessionState(session);
    if (init.parentId === null) this.rootIds.push(id);
    this.core.relabel(session);
    this.core.changed({ sessionId: id, kind: 'tree' });
    return session;
  }

  // ---- linking children ---------------------------------------------------------------------------------

  /**
   * Links `childId` under `parentId`, creating it if new. Refuses self-parenting, cycles and re-parenting
   * (diagnostics); adopts a session whose traffic arrived before its announcement.
   */
  adoptChild(parentId: string, childId: string, link: SessionLink, parentToolCallId?: string): SessionRecord | undefined {
    if (childId === parentId) {
      this.core.diagnose('self-parent', `session ${childId} announced as its own child`);
      return undefined;
    }
    const parent = this.core.session(parentId);
    if (!parent) return undefined;
    const existing = this.core.session(childId);
    if (!existing) {
      const child = this.create(childId, { parentId, parentToolCallId: parentToolCallId ?? null, link, origin: 'announced', state: UNCONFIRMED });
      this.linkUnderParent(parent, child);
      return child;
    }
    if (existing.parentId === parentId) {
      if (parentToolCallId && !existing.parentToolCallId) existing.parentToolCallId = parentToolCallId;
      return existing;
    }
    if (existing.parentId !== null || existing.openedByClient) {
      this.core.diagnose('reparent', `session ${childId} already belongs to ${existing.parentId ?? 'the client as a root'}; not moved under ${parentId}`);
      return undefined;
    }
    if (this.isAncestor(childId, parentId)) {
      this.core.diagnose('cycle', `announcing ${childId} under ${parentId} would make a cycle`);
      return undefined;
    }
    if (existing.hadTraffic) {
      this.core.diagnose('child-before-announcement', `traffic for ${childId} arrived before ${parentId} announced it; attached now`);
    }
    this.removeRoot(childId);
    existing.parentId = parentId;
    existing.parentToolCallId = parentToolCallId ?? null;
    existing.link = link;
    existing.origin = 'announced';
    if (!existing.stateReported) {
      // Its state as an implicit root was a placeholder; as a child it is unconfirmed or follows its tool call.
      const call = parentToolCallId ? parent.toolCalls[parentToolCallId] : undefined;
      this.core.setState(existing, call && TOOL_LINKS.has(link) ? stateFromToolStatus(call.status) : UNCONFIRMED, call ? 'tool-call' : 'client');
    }
    this.linkUnderParent(parent, existing);
    if (existing.hadTraffic) this.noteChildTraffic(existing);
    return existing;
  }

  /** A child reconstructed from its parent's tool call (`<parentId>#<toolCallId>`): no session id of its own. */
  ensureVirtualChild(parentId: string, toolCallId: string, link: SessionLink, subagentType?: string): SessionRecord {
    const id = this.currentId(`${parentId}#${toolCallId}`);
    const existing = this.core.session(id);
    if (existing) return existing;
    const parent = this.core.session(parentId);
    const record = parent?.toolCalls[toolCallId];
    const child = this.create(id, {
      parentId,
      parentToolCallId: toolCallId,
      link,
      origin: 'virtual',
      state: record ? stateFromToolStatus(record.status) : { state: 'running' },
    });
    child.stateHistory[0] = { ...child.stateHistory[0]!, source: 'tool-call' };
    child.subagentType = subagentType ?? null;
    if (record) {
      record.childSessionId = id;
      child.title = subagentTitle(record);
    }
    if (parent) {
      parent.childIds.push(id);
      this.core.touch(parent);
    }
    this.core.relabel(child);
    return child;
  }

  /**
   * A virtual child turned out to be a real session the client then opened (opencode names the child's id
   * only at completion; `session/load` of that id replays it): the real session takes the virtual one's place
   * in the tree (same parent, same tool call) instead of becoming its grandchild.
   */
  replaceVirtualChild(virtual: SessionRecord, realId: string): SessionRecord | undefined {
    if (virtual.origin !== 'virtual' || this.core.sessions.has(realId) || !virtual.parentId) return undefined;
    const parent = this.core.session(virtual.parentId);
    if (!parent) return undefined;
    const real = this.create(realId, { parentId: parent.id, parentToolCallId: virtual.parentToolCallId, link: virtual.link, origin: 'announced', state: virtual.state });
    real.title = virtual.title;
    real.description = virtual.description;
    real.subagentType = virtual.subagentType;
    real.stateHistory.splice(0, real.stateHistory.length, ...virtual.stateHistory);
    real.createdAt = virtual.createdAt;
    real.timeSpent = virtual.timeSpent;
    real.usageReports = virtual.usageReports;
    real.spend = virtual.spend;
    real.childIds.push(...virtual.childIds);
    for (const childId of virtual.childIds) {
      const grandchild = this.core.session(childId);
      if (grandchild) grandchild.parentId = realId;
    }
    parent.childIds.splice(parent.childIds.indexOf(virtual.id), 1, realId);
    const call = virtual.parentToolCallId ? parent.toolCalls[virtual.parentToolCallId] : undefined;
    if (call) {
      call.childSessionId = realId;
      // The chat draws the card where this call is: it must learn the new id, or it finds no session there.
      const callEntry = this.core.indexOf(parent).toolEntries.get(call.toolCallId);
      if (callEntry) this.core.touchEntry(parent, callEntry);
    }
    this.core.sessions.delete(virtual.id);
    this.replaced.set(virtual.id, realId);
    this.reassignToolOwner(virtual.id, realId);
    // The card keeps its place: the loaded session's replay is not its first traffic, so no card is added for it.
    this.childEntries.delete(`${parent.id}\0${virtual.id}`);
    this.childEntries.add(`${parent.id}\0${realId}`);
    const entry = parent.entries.find((e) => e.kind === 'child' && e.childSessionId === virtual.id);
    if (entry) parent.entries.splice(parent.entries.indexOf(entry), 1, { ...entry, id: `child:${realId}`, childSessionId: realId, rev: this.core.rev } as ChildEntry);
    this.core.twins.inherit(virtual.id, realId);
    this.core.relabel(real);
    this.core.touch(parent);
    this.core.changed({ sessionId: virtual.id, kind: 'tree' });
    this.core.changed({ sessionId: realId, kind: 'tree' });
    return real;
  }

  /**
   * Two virtual rows turned out to be one subagent (Copilot: the agent's calls gathered under it before its
   * task call was known): the gathered calls and messages move to the task's child, in arrival order after
   * what it had, and the gathered row goes away (its id finds the merged child).
   */
  mergeVirtualChild(source: SessionRecord, target: SessionRecord): void {
    if (source.origin !== 'virtual' || source.parentId === null || source.id === target.id) return;
    const parent = this.core.session(source.parentId);
    target.entries.push(...source.entries);
    for (const toolCallId of source.toolCallOrder) {
      const call = source.toolCalls[toolCallId];
      if (!call || target.toolCalls[toolCallId]) continue;
      target.toolCalls[toolCallId] = call;
      target.toolCallOrder.push(toolCallId);
    }
    for (const childId of source.childIds) {
      const grandchild = this.core.session(childId);
      if (grandchild) grandchild.parentId = target.id;
      target.childIds.push(childId);
    }
    this.reassignToolOwner(source.id, target.id);
    if (parent) {
      const at = parent.childIds.indexOf(source.id);
      if (at >= 0) parent.childIds.splice(at, 1);
      const card = parent.entries.findIndex((e) => e.kind === 'child' && e.childSessionId === source.id);
      if (card >= 0) parent.entries.splice(card, 1);
      this.childEntries.delete(`${parent.id}\0${source.id}`);
      this.core.reindex(parent);
      this.core.touch(parent);
    }
    target.hadTraffic ||= source.hadTraffic;
    this.core.forget(source.id);
    this.replaced.set(source.id, target.id);
    this.core.reindex(target);
    if (target.hadTraffic) this.noteChildTraffic(target);
    this.core.touch(target);
    this.core.changed({ sessionId: source.id, kind: 'tree' });
    this.core.changed({ sessionId: target.id, kind: 'tree' });
  }

  /**
   * The child's card goes where the child first showed up in its parent's transcript: at its announcement,
   * or (for children linked by a tool call) at its first own traffic, so what came before it on the wire
   * (e.g. the permission to launch it) is drawn before it.
   */
  noteChildTraffic(child: SessionRecord): void {
    if (child.parentId === null) return;
    const parent = this.core.session(child.parentId);
    if (parent) this.addChildEntry(parent, child);
  }

  private linkUnderParent(parent: SessionRecord, child: SessionRecord): void {
    parent.childIds.push(child.id);
    if (!child.parentToolCallId) this.addChildEntry(parent, child);
    this.core.touch(parent);
    this.core.changed({ sessionId: child.id, kind: 'tree' });
  }

  private addChildEntry(parent: SessionRecord, child: SessionRecord): void {
    const key = `${parent.id}\0${child.id}`;
    if (this.childEntries.has(key)) return;
    this.childEntries.add(key);
    this.core.addEntry(parent, { kind: 'child', id: `child:${child.id}`, rev: this.core.rev, at: this.core.at, childSessionId: child.id });
  }

  private removeRoot(sessionId: string): void {
    const index = this.rootIds.indexOf(sessionId);
    if (index >= 0) this.rootIds.splice(index, 1);
  }

  // ---- forgetting (memory bounds) ------------------------------------------------------------------------

  /**
   * Forgets the tree's lookups for a session the store dropped (its record is gone). The lists that name it
   * (its parent's children, the roots) are the caller's to compact, once for everything dropped together.
   */
  forgetSession(session: SessionRecord): void {
    if (session.parentId !== null) this.childEntries.delete(`${session.parentId}\0${session.id}`);
    for (const toolCallId of session.toolCallOrder) this.forgetToolCall(session, toolCallId);
    this.toolOwners.delete(session.id);
  }

  /** Forgets who owns a tool call the store dropped (registered under its own session, or its parent's wire). */
  forgetToolCall(owner: SessionRecord, toolCallId: string): void {
    for (const wireId of [owner.id, owner.parentId]) {
      const owners = wireId === null ? undefined : this.toolOwners.get(wireId);
      if (owners?.get(toolCallId) === owner.id) owners.delete(toolCallId);
    }
    const byId = this.toolOwnerById.get(toolCallId);
    if (byId === owner.id) this.toolOwnerById.delete(toolCallId);
    else if (Array.isArray(byId)) {
      const rest = byId.filter((id) => id !== owner.id);
      if (rest.length === 1) this.toolOwnerById.set(toolCallId, rest[0]!);
      else this.toolOwnerById.set(toolCallId, rest);
    }
  }

  /** Takes dropped sessions out of the roots (one pass for all of them). */
  forgetRoots(dropped: ReadonlySet<string>): void {
    keepInPlace(this.rootIds, (id) => !dropped.has(id));
  }

  // ---- tool call ownership -----------------------------------------------------------------------------

  registerToolCall(wireSessionId: string, ownerId: string, toolCallId: string): void {
    let owners = this.toolOwners.get(wireSessionId);
    if (!owners) this.toolOwners.set(wireSessionId, (owners = new Map()));
    owners.set(toolCallId, ownerId);
    const byId = this.toolOwnerById.get(toolCallId);
    if (byId === undefined) this.toolOwnerById.set(toolCallId, ownerId);
    else if (typeof byId === 'string') this.toolOwnerById.set(toolCallId, [byId, ownerId]);
    else byId.push(ownerId);
  }

  /** The session that owns a tool call seen on a wire session id (itself, or a virtual child of it). */
  toolOwner(wireSessionId: string, toolCallId: string): string | undefined {
    const owner = this.toolOwners.get(wireSessionId)?.get(toolCallId);
    return owner === undefined ? undefined : this.currentId(owner);
  }

  /** Tool calls owned by `from` are owned by `to` now (a virtual row replaced or merged). */
  private reassignToolOwner(from: string, to: string): void {
    for (const owners of this.toolOwners.values()) for (const [toolCallId, owner] of owners) if (owner === from) owners.set(toolCallId, to);
  }

  /**
   * The session owning the parent tool call a child names by bare id (AgentPool). Tool call ids are only
   * unique per session: with several owners, the one whose call is still open wins; otherwise none does.
   */
  parentOwnerFor(childId: string, toolCallId: string): string | undefined {
    const owners = [this.toolOwnerById.get(toolCallId) ?? []].flat().filter((id) => id !== childId);
    if (owners.length <= 1) return owners[0];
    const open = owners.filter((id) => {
      const call = this.core.session(id)?.toolCalls[toolCallId];
      return call !== undefined && isToolCallOpen(call.status);
    });
    if (open.length === 1) return open[0];
    if (!this.reportedAmbiguous.has(childId)) {
      this.reportedAmbiguous.add(childId);
      this.core.diagnose('ambiguous-parent', `${childId} names parent tool call ${toolCallId}, which ${owners.length} sessions have; not attached`);
    }
    return undefined;
  }

  sessionByRemoteId(remoteId: string): SessionRecord | undefined {
    for (const session of this.core.sessions.values()) if (session.remoteSessionId === remoteId) return session;
    return undefined;
  }

  /** The session's own cwd, or (while unset) the nearest ancestor's. */
  effectiveCwd(sessionId: string): string | null {
    const session = this.core.session(sessionId);
    if (session?.cwd) return session.cwd;
    return this.ancestors(sessionId).find((s) => s.cwd)?.cwd ?? null;
  }
}

/** A subagent's display title from its tool call: the task description beats a generic tool name. */
export function subagentTitle(record: ToolCallRecord): string | null {
  const input = isObject(record.rawInput) ? record.rawInput : undefined;
  const description = asString(input?.['description']) ?? asString(input?.['agent_name']);
  if (description) return description;
  if (record.title && record.title !== record.toolCallId && !GENERIC_TOOL_TITLES.has(record.title)) return record.title;
  return asString(input?.['subagent_type']) ?? null;
}
