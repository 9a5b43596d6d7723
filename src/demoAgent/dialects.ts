// How a spawned subagent appears on the wire, one function per dialect (shapes from
// ../shared/acp/dialects.md and the recorded traces; see that file for which agent sends which).
import type { Channel, ChildLink, ChildOutcome, ChildSpec, SendUpdate, StampInfo, Update } from './channel';
import { demoCost, textBlock, textContent } from './channel';
import type { JsonObject } from './lineRpc';
import { ErrorCodes, isObject } from './lineRpc';
import type { DialectName } from './options';

export interface DialectContext {
  readonly send: SendUpdate;
  newId(prefix: string): string;
  newSessionId(): string;
  /** Copilot's `github.com/copilot/sessionEvent` stream, when the client asked for it (else undefined). */
  readonly copilotEvent?: (sessionId: string, type: string, data: JsonObject, agentId?: string) => void;
}

export interface Dialect {
  readonly name: DialectName;
  /** Prefix of tool call ids, to look like the agent this dialect imitates. */
  readonly toolCallPrefix: string;
  rootChannel(sessionId: string): Channel;
  spawn(parent: Channel, spec: ChildSpec): ChildLink;
}

export function createDialect(name: DialectName, ctx: DialectContext): Dialect {
  switch (name) {
    case 'acp':
      return acpDialect(ctx);
    case 'claude':
      return claudeDialect(ctx);
    case 'qwen':
      return qwenDialect(ctx);
    case 'zed':
      return zedDialect(ctx);
    case 'kind-subagent':
      return kindSubagentDialect(ctx);
    case 'air':
      return airDialect(ctx);
    case 'copilot':
      return copilotDialect(ctx);
  }
}

function plainChannel(rootSessionId: string, wireSessionId: string, paramsMeta?: JsonObject): Channel {
  return { rootSessionId, wireSessionId, paramsMeta, stamp: (update) => update };
}

/** Merges marker keys into `update._meta`; keys the update already has win. */
function withMeta(update: Update, marker: JsonObject): Update {
  const meta = isObject(update._meta) ? (update._meta as JsonObject) : {};
  return { ...update, _meta: { ...marker, ...meta } };
}

function usageOf(outcome: ChildOutcome): JsonObject | undefined {
  return outcome.usage ? { ...outcome.usage } : undefined;
}

/** A child's `state` once it stopped: why, with its usage (and the error, if it failed). */
function idleState(outcome: ChildOutcome): JsonObject {
  const state: JsonObject = { state: 'idle', stopReason: outcome.stopReason };
  if (outcome.stopReason === 'error') state.error = { code: ErrorCodes.internalError, message: outcome.reply };
  const usage = usageOf(outcome);
  if (usage) state.usage = usage;
  return state;
}

/** ACP subagent sessions (SDK 2.4.0 shape): subagent_update + session_message, child traffic on its own id. */
function acpDialect(ctx: DialectContext): Dialect {
  return {
    name: 'acp',
    toolCallPrefix: 'call_',
    rootChannel: (sessionId) => plainChannel(sessionId, sessionId),
    spawn(parent, spec) {
      const childId = ctx.newSessionId();
      const channel = plainChannel(parent.rootSessionId, childId);
      const delegationId = ctx.newId('msg_delegate_');
      const subagentUpdate = (fields: JsonObject): void =>
        ctx.send(parent, { sessionUpdate: 'subagent_update', sessionId: childId, ...fields });
      /** One message to this child as two linked views: the sender's copy, then the child's. */
      const deliver = (sender: Channel, text: string, messageId: string): void => {
        const message: Update = { sessionUpdate: 'session_message', senderSessionId: sender.wireSessionId, recipientSessionId: childId, content: [textBlock(text)] };
        ctx.send(sender, { ...message, messageId, recipientMessageId: messageId });
        ctx.send(channel, { ...message, messageId, senderMessageId: messageId });
      };
      return {
        channel,
        cancelTarget: spec.cancellable ? childId : undefined,
        announce() {
          subagentUpdate({
            title: spec.title,
            description: spec.description,
            capabilities: spec.cancellable ? { cancel: {} } : {},
            state: { state: 'running' },
          });
          deliver(parent, spec.prompt, delegationId);
        },
        setState: (state) => subagentUpdate({ state: { state } }),
        messaging: {
          deliver: (sender, text) => deliver(sender, text, ctx.newId('msg_relay_')),
          wake() {
            subagentUpdate({ state: { state: 'running' } });
            return (outcome) => subagentUpdate({ state: idleState(outcome) });
          },
        },
        progress: () => undefined,
        finish(outcome) {
          subagentUpdate({ state: idleState(outcome) });
          // Like codex-acp: a stopped child can no longer be cancelled.
          if (spec.cancellable) subagentUpdate({ capabilities: { cancel: null } });
          if (outcome.stopReason === 'end_turn') {
            ctx.send(parent, {
              sessionUpdate: 'session_message',
              messageId: `${delegationId}:reply`,
              senderSessionId: childId,
              recipientSessionId: parent.wireSessionId,
              content: [textBlock(outcome.reply)],
            });
          }
        },
      };
    },
  };
}

/** Claude adapters without subagent sessions: an Agent tool call; child updates stay on the parent, stamped. */
function claudeDialect(ctx: DialectContext): Dialect {
  const toolMeta = (info?: StampInfo): JsonObject | undefined => (info?.toolName ? { toolName: info.toolName } : undefined);
  const claudeStamp = (update: Update, marker: JsonObject | undefined): Update => {
    if (!marker) return update;
    const meta = isObject(update._meta) ? (update._meta as JsonObject) : {};
    const claudeCode = isObject(meta.claudeCode) ? (meta.claudeCode as JsonObject) : {};
    return { ...update, _meta: { ...meta, claudeCode: { ...marker, ...claudeCode } } };
  };
  return {
    name: 'claude',
    toolCallPrefix: 'toolu_demo',
    rootChannel: (sessionId) => ({
      rootSessionId: sessionId,
      wireSessionId: sessionId,
      stamp: (update, info) => claudeStamp(update, toolMeta(info)),
    }),
    spawn(parent, spec) {
      const toolUseId = ctx.newId('toolu_demo');
      const agentId = ctx.newId('a').replace(/_/g, '');
      const agentMeta = { claudeCode: { toolName: 'Agent' } };
      const channel: Channel = {
        rootSessionId: parent.rootSessionId,
        wireSessionId: parent.wireSessionId,
        stamp: (update, info) => claudeStamp(update, { ...toolMeta(info), parentToolUseId: toolUseId }),
      };
      const started = Date.now();
      return {
        channel,
        announce() {
          ctx.send(parent, {
            sessionUpdate: 'tool_call',
            toolCallId: toolUseId,
            name: 'Agent',
            rawInput: {},
            status: 'pending',
            title: 'Task',
            kind: 'think',
            content: [],
            _meta: agentMeta,
          });
          ctx.send(parent, {
            sessionUpdate: 'tool_call_update',
            toolCallId: toolUseId,
            rawInput: { description: spec.title, prompt: spec.prompt, subagent_type: spec.subagentId },
            title: spec.title,
            kind: 'think',
            content: [textContent(spec.prompt)],
            _meta: agentMeta,
          });
        },
        setState: () => undefined,
        progress: () => undefined,
        finish(outcome) {
          if (outcome.stopReason !== 'end_turn') {
            const text = outcome.stopReason === 'cancelled' ? '[Request interrupted by user for tool use]' : outcome.reply;
            ctx.send(parent, { sessionUpdate: 'tool_call_update', toolCallId: toolUseId, status: 'failed', content: [textContent(text)], _meta: agentMeta });
            return;
          }
          // The PostToolUse hook update comes first, then the tool result.
          ctx.send(parent, {
            sessionUpdate: 'tool_call_update',
            toolCallId: toolUseId,
            _meta: {
              claudeCode: {
                toolName: 'Agent',
                toolResponse: {
                  status: 'completed',
                  agentId,
                  prompt: spec.prompt,
                  content: [textBlock(outcome.reply)],
                  totalDurationMs: Date.now() - started,
                  totalTokens: outcome.usage?.totalTokens ?? 0,
                  totalToolUseCount: 1,
                },
              },
            },
          });
          ctx.send(parent, {
            sessionUpdate: 'tool_call_update',
            toolCallId: toolUseId,
            status: 'completed',
            rawOutput: [textBlock(`${outcome.reply}\nagentId: ${agentId} (use SendMessage with to: '${agentId}' to continue this agent)`)],
            content: [textContent(outcome.reply)],
            _meta: agentMeta,
          });
        },
      };
    },
  };
}

/** qwen-code: Agent tool call (kind other, _meta.toolName agent); child updates on the parent with update _meta links. */
function qwenDialect(ctx: DialectContext): Dialect {
  return {
    name: 'qwen',
    toolCallPrefix: 'call_',
    rootChannel: (sessionId) => ({
      rootSessionId: sessionId,
      wireSessionId: sessionId,
      stamp: (update, info) => (info?.toolName ? withMeta(update, { toolName: info.toolName, provenance: 'builtin' }) : update),
    }),
    spawn(parent, spec) {
      const toolCallId = ctx.newId('call_');
      const channel: Channel = {
        rootSessionId: parent.rootSessionId,
        wireSessionId: parent.wireSessionId,
        stamp: (update, info) =>
          withMeta(
            update,
            info?.toolName
              ? { toolName: info.toolName, provenance: 'subagent', parentToolCallId: toolCallId, subagentType: spec.subagentId }
              : { parentToolCallId: toolCallId, subagentType: spec.subagentId },
          ),
      };
      const rawInput = { description: spec.title, prompt: spec.prompt, subagent_type: spec.subagentId };
      const finalUpdate = (status: string, text: string, runStatus: string): Update => ({
        sessionUpdate: 'tool_call_update',
        toolCallId,
        status,
        content: [textContent(text)],
        rawOutput: { type: 'task_execution', subagentName: spec.subagentId, taskDescription: spec.title, taskPrompt: spec.prompt, status: runStatus },
        _meta: { toolName: 'agent', provenance: 'builtin' },
      });
      return {
        channel,
        announce() {
          ctx.send(parent, {
            sessionUpdate: 'tool_call',
            toolCallId,
            status: 'pending',
            title: `Agent: ${spec.title}`,
            content: [],
            locations: [],
            kind: 'other',
            rawInput,
            _meta: { toolName: 'agent', provenance: 'builtin', subagentSessionReady: false, timestamp: Date.now() },
          });
          ctx.send(parent, { sessionUpdate: 'tool_call_update', toolCallId, _meta: { toolName: 'agent', subagentSessionReady: true } });
        },
        setState: () => undefined,
        progress(text) {
          ctx.send(parent, {
            sessionUpdate: 'tool_call_update',
            toolCallId,
            status: 'in_progress',
            content: [textContent(text)],
            _meta: { subagentType: spec.subagentId, provenance: 'subagent', subagentProgress: true },
          });
        },
        finish(outcome) {
          if (outcome.stopReason === 'end_turn') ctx.send(parent, finalUpdate('completed', outcome.reply, 'completed'));
          else ctx.send(parent, finalUpdate('failed', outcome.reply, outcome.stopReason === 'cancelled' ? 'cancelled' : 'failed'));
        },
      };
    },
  };
}

/** Spawn tool call on the parent and the child's own session id, for dialects that only differ in the tool call. */
function toolCallDialect(
  ctx: DialectContext,
  name: DialectName,
  build: { announce(toolCallId: string, childId: string, spec: ChildSpec): Update; finish(toolCallId: string, childId: string, outcome: ChildOutcome): Update },
  paramsMeta?: (toolCallId: string, spec: ChildSpec) => JsonObject,
): Dialect {
  return {
    name,
    toolCallPrefix: 'call_',
    rootChannel: (sessionId) => plainChannel(sessionId, sessionId),
    spawn(parent, spec) {
      const toolCallId = ctx.newId('call_');
      const childId = ctx.newSessionId();
      const channel = plainChannel(parent.rootSessionId, childId, paramsMeta?.(toolCallId, spec));
      return {
        channel,
        cancelTarget: spec.cancellable ? childId : undefined,
        announce() {
          ctx.send(parent, build.announce(toolCallId, childId, spec));
          // These dialects have no session_message: the child transcript starts with its prompt.
          ctx.send(channel, { sessionUpdate: 'user_message_chunk', messageId: ctx.newId('msg_'), content: textBlock(spec.prompt) });
        },
        setState: () => undefined,
        progress: () => undefined,
        finish: (outcome) => {
          // The child's own session says what it used (ACP usage_update, as any session may): these dialects'
          // launch calls carry no usage of their own.
          if (outcome.usage) ctx.send(channel, childUsage(outcome.usage));
          ctx.send(parent, build.finish(toolCallId, childId, outcome));
        },
      };
    },
  };
}

/** A child's usage as ACP's usage_update: its tokens as the context used, at the demo's made-up price. */
function childUsage(usage: NonNullable<ChildOutcome['usage']>): Update {
  return { sessionUpdate: 'usage_update', used: usage.totalTokens, size: 200000, cost: demoCost(usage.totalTokens) };
}

const finalStatus = (outcome: ChildOutcome): string => (outcome.stopReason === 'end_turn' ? 'completed' : 'failed');

/** Zed's convention as AgentPool sends it: tool call _meta.subagent_session_info, child traffic with params _meta. */
function zedDialect(ctx: DialectContext): Dialect {
  return toolCallDialect(
    ctx,
    'zed',
    {
      announce: (toolCallId, childId, spec) => ({
        sessionUpdate: 'tool_call',
        toolCallId,
        title: `${spec.subagentId}: ${spec.title}`,
        kind: 'other',
        status: 'pending',
        _meta: { subagent_session_info: { session_id: childId, message_start_index: 0 }, tool_name: 'task' },
      }),
      finish: (toolCallId, childId, outcome) => ({
        sessionUpdate: 'tool_call_update',
        toolCallId,
        status: finalStatus(outcome),
        _meta: { subagent_session_info: { session_id: childId }, tool_name: 'task' },
      }),
    },
    (toolCallId, spec) => ({ parentToolCallId: toolCallId, subagentType: spec.subagentId, provenance: 'subagent' }),
  );
}

/** ACP PR #855 draft: tool call kind "subagent" with subagent.childSessionId. */
function kindSubagentDialect(ctx: DialectContext): Dialect {
  return toolCallDialect(ctx, 'kind-subagent', {
    announce: (toolCallId, childId, spec) => ({
      sessionUpdate: 'tool_call',
      toolCallId,
      title: `${spec.subagentId}: ${spec.title}`,
      kind: 'subagent',
      status: 'pending',
      subagent: { childSessionId: childId, subagentId: spec.subagentId, runMode: spec.runMode, displayName: spec.title },
    }),
    finish: (toolCallId, _childId, outcome) => ({
      sessionUpdate: 'tool_call_update',
      toolCallId,
      status: finalStatus(outcome),
      content: [textContent(outcome.reply)],
    }),
  });
}

/** JetBrains AIR (early RFD draft): subagent_spawned / subagent_state_update, no child capabilities. */
function airDialect(ctx: DialectContext): Dialect {
  return {
    name: 'air',
    toolCallPrefix: 'call_',
    rootChannel: (sessionId) => plainChannel(sessionId, sessionId),
    spawn(parent, spec) {
      const childId = ctx.newSessionId();
      const channel = plainChannel(parent.rootSessionId, childId);
      return {
        channel,
        announce() {
          ctx.send(parent, {
            sessionUpdate: 'subagent_spawned',
            subagentSessionId: childId,
            name: spec.title,
            task: spec.prompt,
            prompt: spec.prompt,
            capabilities: {},
          });
        },
        setState: () => undefined,
        progress: () => undefined,
        finish(outcome) {
          const state = outcome.stopReason === 'end_turn' ? 'completed' : outcome.stopReason === 'cancelled' ? 'cancelled' : 'failed';
          ctx.send(parent, { sessionUpdate: 'subagent_state_update', subagentSessionId: childId, state });
        },
      };
    },
  };
}

/**
 * GitHub Copilot CLI 1.0.102 (recorded): a `task` call on the parent; the subagent's tool calls stay on the
 * parent session tagged `_meta["github.com/copilot"].agentId`; its text arrives unmarked on the parent, told
 * apart only by the opt-in events (`subagent.started`, `assistant.message_delta`, `subagent.completed`).
 */
function copilotDialect(ctx: DialectContext): Dialect {
  return {
    name: 'copilot',
    toolCallPrefix: 'call_',
    rootChannel: (sessionId) => plainChannel(sessionId, sessionId),
    spawn(parent, spec) {
      const toolCallId = ctx.newId('call_');
      const agentId = ctx.newId('agent-');
      const event = (type: string, data: JsonObject): void => ctx.copilotEvent?.(parent.wireSessionId, type, data, agentId);
      const messageId = ctx.newId('msg_');
      const channel: Channel = {
        rootSessionId: parent.rootSessionId,
        wireSessionId: parent.wireSessionId,
        stamp: (update) => {
          if (update.sessionUpdate === 'tool_call' || update.sessionUpdate === 'tool_call_update') return withMeta(update, { 'github.com/copilot': { agentId } });
          const content = isObject(update.content) ? (update.content as JsonObject) : undefined;
          // The event that says whose text this is goes out just before the unmarked chunk.
          if (update.sessionUpdate === 'agent_message_chunk' && typeof content?.text === 'string') {
            event('assistant.message_delta', { messageId, deltaContent: content.text, parentToolCallId: toolCallId });
          }
          return update;
        },
      };
      const rawInput = { description: spec.title, prompt: spec.prompt, agent_type: spec.subagentId, name: spec.title.toLowerCase() };
      return {
        channel,
        announce() {
          ctx.send(parent, { sessionUpdate: 'tool_call', toolCallId, title: spec.title, kind: 'other', status: 'pending', rawInput });
          event('subagent.started', { toolCallId, agentName: spec.subagentId, agentDisplayName: spec.title, agentDescription: spec.description, agentType: spec.subagentId, executionMode: 'sync' });
        },
        setState: () => undefined,
        progress: () => undefined,
        finish(outcome) {
          if (outcome.stopReason === 'end_turn') {
            event('subagent.completed', { toolCallId, agentName: spec.subagentId, agentDisplayName: spec.title });
            ctx.send(parent, { sessionUpdate: 'tool_call_update', toolCallId, status: 'completed', content: [textContent(outcome.reply)], rawOutput: { content: outcome.reply, detailedContent: outcome.reply } });
          } else {
            event('subagent.failed', { toolCallId, agentName: spec.subagentId, error: outcome.reply });
            ctx.send(parent, { sessionUpdate: 'tool_call_update', toolCallId, status: 'failed', content: [textContent(outcome.reply)] });
          }
        },
      };
    },
  };
}
