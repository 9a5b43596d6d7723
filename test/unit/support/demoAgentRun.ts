// Driving the demo agent in tests: in-process agents stopped after the file's tests, and readers of what it sent.
import assert from 'node:assert/strict';
import { after } from 'node:test';
import type { DemoClient, Msg, RunningAgent } from '../../fixtures/demo/demoClient';
import { fullCapabilities, startInProcess } from '../../fixtures/demo/demoClient';

export const CWD = '/work/demo-project';
const running: RunningAgent[] = [];

after(async () => {
  await Promise.all(running.map((agent) => agent.stop()));
});

/** Stops this agent once the test file is done. */
export function stopAfterTests(agent: RunningAgent): void {
  running.push(agent);
}

/** An in-process demo agent at pace 0 (unless `args` set one), stopped after the file's tests. */
export function start(...args: string[]): DemoClient {
  const agent = startInProcess(['--pace', '0', ...args]);
  stopAfterTests(agent);
  return agent.client;
}

export async function newSession(client: DemoClient, capabilities: Msg = fullCapabilities()): Promise<string> {
  await client.initialize(capabilities);
  const session = await client.call('session/new', { cwd: CWD, mcpServers: [] });
  return session.sessionId as string;
}

export function prompt(client: DemoClient, sessionId: string, text = 'Show me what you can do', extra: Msg = {}): Promise<Msg> {
  return client.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }], ...extra });
}

/** subagent_update announcements (first update per child): child id -> parent id. */
export function announcedChildren(client: DemoClient): Map<string, string> {
  const children = new Map<string, string>();
  for (const params of client.updates()) {
    if (params.update.sessionUpdate === 'subagent_update' && !children.has(params.update.sessionId)) children.set(params.update.sessionId, params.sessionId);
  }
  return children;
}

export function childByTitle(client: DemoClient, title: string): string {
  const announcement = client.updates().find((params) => params.update.sessionUpdate === 'subagent_update' && params.update.title === title);
  assert.ok(announcement, `${title} was announced`);
  return announcement.update.sessionId as string;
}

/** subagent_update states reported for one child, in order. */
export function statesOf(client: DemoClient, childId: string): Msg[] {
  return client
    .updates()
    .filter((params) => params.update.sessionUpdate === 'subagent_update' && params.update.sessionId === childId && params.update.state)
    .map((params) => params.update.state as Msg);
}

/** `state/stopReason` of the last state reported for a child. */
export function lastState(client: DemoClient, childId: string): string {
  const state = statesOf(client, childId).at(-1);
  return `${state?.state}/${state?.stopReason}`;
}

export function messageText(client: DemoClient, sessionId: string, kind = 'agent_message_chunk'): string {
  return client
    .updates()
    .filter((params) => params.sessionId === sessionId && params.update.sessionUpdate === kind)
    .map((params) => params.update.content.text as string)
    .join('');
}

export function requests(client: DemoClient, method: string): Msg[] {
  return client.received.filter((message) => message.method === method && message.id !== undefined);
}

/** Final status of every tool call seen, by toolCallId. */
export function toolStatuses(client: DemoClient): Map<string, string> {
  const statuses = new Map<string, string>();
  for (const { update } of client.updates()) {
    if ((update.sessionUpdate === 'tool_call' || update.sessionUpdate === 'tool_call_update') && update.status) statuses.set(update.toolCallId, update.status);
  }
  return statuses;
}

