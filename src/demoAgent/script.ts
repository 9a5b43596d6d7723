// The scripted multi-agent turn: what the demo agent says and does for one prompt.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { Actor, ToolSpec } from './actor';
import { Cancelled, sleep } from './cancelScope';
import type { ChildOutcome, ChildSpec } from './channel';
import { textContent } from './channel';
import type { Json, JsonObject } from './lineRpc';
import { ErrorCodes, RpcError, isObject } from './lineRpc';

export interface Delegation {
  readonly policy: string;
  readonly subagentId?: string;
  readonly runMode?: 'foreground' | 'background';
}

export interface TurnSettings {
  readonly cwd: string;
  /** `plan` mode makes no edits and runs no commands. */
  readonly mode: string;
  readonly showThoughts: boolean;
  /** Tool names the user chose "Always allow" for in this session. */
  readonly alwaysAllowed: Set<string>;
  readonly childDuration: number;
  readonly delegation?: Delegation;
  /** `/slow`: the demo command runs until it is cancelled (in an agent terminal: alone, by tool_call/cancel). */
  readonly slowCommand?: boolean;
}

const DEMO_DIR = 'subchats-demo';

export const SUBAGENT_CATALOG = [
  { id: 'explorer', title: 'Explorer', description: 'Searches the workspace and delegates a deep scan to a scout' },
  { id: 'reviewer', title: 'Reviewer', description: 'Reviews the change and writes review notes (asks first)' },
] as const;

const PLAN_STEPS = ['Read the demo notes', 'Update the notes', 'Run the demo checks', 'Delegate exploration and review', 'Summarize'];

/** Keeps the plan as one list and re-sends it whole on every change (plan updates replace). */
class PlanTracker {
  private readonly statuses: string[] = PLAN_STEPS.map(() => 'pending');

  constructor(private readonly actor: Actor) {}

  async set(index: number, status: 'in_progress' | 'completed'): Promise<void> {
    this.statuses[index] = status;
    await this.actor.plan(PLAN_STEPS.map((content, i) => ({ content, priority: i === 3 ? 'high' : 'medium', status: this.statuses[i] ?? 'pending' })));
  }
}

/** The full demo turn of the root agent; returns the final answer text. */
export async function demoTurn(actor: Actor, turn: TurnSettings): Promise<string> {
  if (turn.showThoughts) {
    await actor.say('The user wants to see what an agent with subagents looks like. I will read a file, edit it, run a command, then hand two jobs to parallel subagents.', 'thought');
  }
  const plan = new PlanTracker(actor);
  await plan.set(0, 'in_progress');
  await actor.say("Hi! I'm the **Subchats demo agent**. I'll walk through everything an ACP agent can show: tools, permissions, a terminal, and two subagents working in parallel.");

  const notesPath = demoFile(turn.cwd, 'notes.md');
  const oldNotes = await readNotes(actor, notesPath);
  await plan.set(0, 'completed');

  if (turn.mode === 'plan') {
    await actor.say('\n\nPlan mode is on, so I will not edit files or run commands.');
  } else {
    await plan.set(1, 'in_progress');
    await editNotes(actor, turn, notesPath, oldNotes);
    await plan.set(1, 'completed');
    await plan.set(2, 'in_progress');
    await runChecks(actor, turn);
    await plan.set(2, 'completed');
  }

  await plan.set(3, 'in_progress');
  const outcomes = await delegate(actor, turn);
  await plan.set(3, 'completed');

  await plan.set(4, 'in_progress');
  const summary = summaryText(outcomes);
  await actor.say(summary);
  await plan.set(4, 'completed');
  return summary;
}

/** `/quick`: a short answer with no tools and no subagents; its second code block names a file (Apply). */
export async function quickTurn(actor: Actor): Promise<string> {
  const answer =
    'Quick answer from the **demo agent**:\n\n```sh\necho "hello from subchats"\n```\n\n' +
    `A note for the repository:\n\n\`\`\`md ${DEMO_DIR}/quick.md\n# Quick note\n\nWritten by the demo agent's /quick answer.\n\`\`\`\n`;
  await actor.say(answer);
  return answer;
}

/** What a prompt carried beyond text, in words ("file a.ts (resource_link)"), for the demo's reply. */
export function describeReceived(blocks: readonly JsonObject[]): string[] {
  const baseName = (uri: unknown): string => (typeof uri === 'string' ? (uri.split('#')[0]?.split('/').pop() ?? uri) : '?');
  const range = (uri: unknown): string => (typeof uri === 'string' && uri.includes('#') ? ` lines ${uri.split('#L')[1] ?? ''}` : '');
  return blocks.flatMap((block): string[] => {
    if (block.type === 'resource_link') return [`file ${baseName(block.uri)}${range(block.uri)} (resource_link)`];
    if (block.type === 'resource' && isObject(block.resource)) {
      const text = typeof block.resource.text === 'string' ? block.resource.text : '';
      return [`file ${baseName(block.resource.uri)}${range(block.resource.uri)} (resource, ${text.length} characters)`];
    }
    if (block.type === 'image' || block.type === 'audio') return [`${block.type} ${String(block.mimeType)} (${block.type})`];
    return [];
  });
}

/** A prompt with attachments: says what arrived, so tests can check the wire without a real agent. */
export async function receivedTurn(actor: Actor, received: readonly string[]): Promise<string> {
  const answer = `Received: ${received.join('; ')}`;
  await actor.say(answer);
  return answer;
}

/** `/long`: streams a long markdown answer (about 2000 chunks, at least 10 ms apart) until done or cancelled. */
export async function longTurn(actor: Actor): Promise<string> {
  const lines = function* (): Generator<string> {
    for (let i = 1; i <= 2000; i++) {
      if (i % 100 === 1) yield `\n\n### Part ${Math.ceil(i / 100)}\n\n`;
      else if (i % 50 === 0) yield `\n\n\`\`\`ts\nconst step${i} = ${i};\n\`\`\`\n\n`;
      else yield `Sentence ${i} of a very long answer. `;
    }
  };
  await actor.stream(lines(), Math.max(actor.ctx.pace / 3, 10));
  return 'Long answer finished.';
}

function demoFile(cwd: string, name: string): string | undefined {
  // Writes stay inside the session cwd; without an absolute cwd there is nowhere safe to write.
  return path.isAbsolute(cwd) ? path.join(cwd, DEMO_DIR, name) : undefined;
}

const fileLabel = (filePath: string | undefined, name: string): string => `${DEMO_DIR}/${name}` + (filePath ? '' : ' (no cwd)');

async function readNotes(actor: Actor, notesPath: string | undefined): Promise<string | null> {
  const tool: ToolSpec = {
    title: `Read ${fileLabel(notesPath, 'notes.md')}`,
    kind: 'read',
    name: 'Read',
    rawInput: { file_path: notesPath ?? null },
    locations: notesPath ? [{ path: notesPath, line: 1 }] : [],
  };
  const id = await actor.startTool(tool);
  await actor.updateTool(id, { status: 'in_progress' });
  const { client } = actor.ctx;
  if (!notesPath || !(client.readTextFile || client.agentFiles)) {
    await actor.endTool(id, 'completed', { content: [textContent('(This client does not offer fs/read_text_file; pretending the file is new.)')] });
    return null;
  }
  try {
    const text = client.agentFiles ? await readOwnFile(notesPath) : await readThroughClient(actor, notesPath);
    await actor.endTool(id, 'completed', { content: [textContent(fence(text, 'md'))], rawOutput: { content: text } });
    return text;
  } catch (error) {
    if (!(error instanceof RpcError)) throw error;
    await actor.endTool(id, 'completed', { content: [textContent('The file does not exist yet; I will create it.')], rawOutput: { error: error.message } });
    return null;
  }
}

async function readThroughClient(actor: Actor, filePath: string): Promise<string> {
  const result = await actor.clientRequest('fs/read_text_file', { path: filePath });
  return isObject(result) && typeof result.content === 'string' ? result.content : '';
}

/** Reads a file of its own (ACP v2); a failure is reported like the client's error would be. */
async function readOwnFile(filePath: string): Promise<string> {
  try {
    return await readFile(filePath, 'utf8');
  } catch (error) {
    throw new RpcError(ErrorCodes.resourceNotFound, error instanceof Error ? error.message : String(error));
  }
}

/** Writes a file of its own (ACP v2), making its folder first. */
async function writeOwnFile(filePath: string, text: string): Promise<void> {
  try {
    await mkdir(path.dirname(filePath), { recursive: true });
    await writeFile(filePath, text, 'utf8');
  } catch (error) {
    throw new RpcError(ErrorCodes.internalError, error instanceof Error ? error.message : String(error));
  }
}

async function editNotes(actor: Actor, turn: TurnSettings, notesPath: string | undefined, oldText: string | null): Promise<void> {
  const stamp = new Date().toISOString();
  const newText = (oldText ?? '# Subchats demo notes\n\nThis file is written by the Subchats demo agent.\n') + `\n- ${stamp}: visited by the demo agent\n`;
  const diffPath = notesPath ?? `${DEMO_DIR}/notes.md`;
  const content = [{ type: 'diff', path: diffPath, oldText, newText }];
  const tool: ToolSpec = {
    title: `Edit ${fileLabel(notesPath, 'notes.md')}`,
    kind: 'edit',
    name: 'Edit',
    rawInput: { file_path: diffPath, old_string: oldText ?? '', new_string: newText },
    content,
    locations: [{ path: diffPath }],
  };
  await actor.say('\n\nNext I will add a line to the notes. I need your permission to write the file.');
  const id = await actor.startTool(tool);
  const message = await writeWithPermission(actor, turn, id, tool, content, notesPath, newText);
  await actor.endTool(id, message.ok ? 'completed' : 'failed', { content: [...content, textContent(message.text)] });
}

/** Asks (unless already "always allowed"), then writes: itself at v2, else through the client when it can. */
async function writeWithPermission(
  actor: Actor,
  turn: TurnSettings,
  toolCallId: string,
  tool: ToolSpec,
  content: JsonObject[],
  filePath: string | undefined,
  text: string,
): Promise<{ ok: boolean; text: string }> {
  if (!turn.alwaysAllowed.has(tool.name)) {
    const answer = await actor.askPermission(toolCallId, tool, content);
    if (answer === 'rejected') return { ok: false, text: 'The user rejected this change.' };
    if (answer === 'allow_always') turn.alwaysAllowed.add(tool.name);
  }
  await actor.updateTool(toolCallId, { status: 'in_progress' });
  const { client } = actor.ctx;
  if (!filePath || !(client.writeTextFile || client.agentFiles)) return { ok: true, text: '(This client does not offer fs/write_text_file; the change is shown but not written.)' };
  try {
    if (client.agentFiles) await writeOwnFile(filePath, text);
    else await actor.clientRequest('fs/write_text_file', { path: filePath, content: text });
    return { ok: true, text: `Wrote ${filePath}.` };
  } catch (error) {
    if (!(error instanceof RpcError)) throw error;
    return { ok: false, text: `Could not write the file: ${error.message}` };
  }
}

// Runs with the client's node (or VS Code's Electron as node) so it works wherever the agent runs.
const CHECK_SCRIPT = "for (const step of ['lint', 'types', 'unit tests']) console.log('\\u2713 ' + step + ' ok'); console.log('3 checks passed');";

async function runChecks(actor: Actor, turn: TurnSettings): Promise<void> {
  const cwd = turn.cwd;
  const tool: ToolSpec = { title: 'Run the demo checks', kind: 'execute', name: 'Bash', rawInput: { command: `node -e "${CHECK_SCRIPT}"`, description: 'Run the demo checks' } };
  await actor.say('\n\nNow a quick command in a terminal.');
  const id = await actor.startTool(tool);
  if (actor.ctx.client.agentTerminal) {
    await runInAgentTerminal(actor, id, turn);
    return;
  }
  if (!actor.ctx.client.terminal) {
    const output = '✓ lint ok\n✓ types ok\n✓ unit tests ok\n3 checks passed\n';
    await actor.endTool(id, 'completed', { content: [textContent(`(No client terminal; simulated output.)\n${fence(output, 'console')}`)], rawOutput: { output, exitCode: 0 } });
    return;
  }
  let terminalId: string | undefined;
  try {
    const created = await actor.clientRequest('terminal/create', {
      command: process.execPath,
      args: ['-e', CHECK_SCRIPT],
      env: [{ name: 'ELECTRON_RUN_AS_NODE', value: '1' }],
      cwd: path.isAbsolute(cwd) ? cwd : null,
      outputByteLimit: 65536,
    });
    terminalId = isObject(created) && typeof created.terminalId === 'string' ? created.terminalId : undefined;
    if (!terminalId) throw new RpcError(ErrorCodes.internalError, 'terminal/create returned no terminalId');
    await actor.updateTool(id, { status: 'in_progress', content: [{ type: 'terminal', terminalId }] });
    const exit = await actor.clientRequest('terminal/wait_for_exit', { terminalId });
    const output = await actor.clientRequest('terminal/output', { terminalId });
    const exitCode = isObject(exit) && typeof exit.exitCode === 'number' ? exit.exitCode : null;
    const rawOutput: JsonObject = { exitCode, output: isObject(output) ? (output.output ?? '') : '' };
    await actor.endTool(id, exitCode === 0 ? 'completed' : 'failed', { content: [{ type: 'terminal', terminalId }], rawOutput });
  } catch (error) {
    if (!(error instanceof RpcError)) throw error;
    await actor.endTool(id, 'failed', { content: [textContent(`Terminal error: ${error.message}`)] });
  } finally {
    if (terminalId) await releaseTerminal(actor, terminalId);
  }
}

const CHECK_LINES = ['✓ lint ok', '✓ types ok', '✓ unit tests ok', '3 checks passed'];
const SLOW_LINES = 600;

/**
 * ACP v2: the agent owns the terminal. Its output streams as base64 chunks; the call and the terminal grant
 * `capabilities.cancel` while the command runs, and cancelling either stops just this command (the turn goes on).
 */
async function runInAgentTerminal(actor: Actor, toolCallId: string, turn: TurnSettings): Promise<void> {
  const terminalId = actor.ctx.newId('term_');
  const scope = actor.scope.child();
  const unregister = [actor.ctx.registerItemCancel({ toolCallId }, scope), actor.ctx.registerItemCancel({ terminalId }, scope)];
  const cancel = { cancel: {} };
  const content = [{ type: 'terminal', terminalId }];
  const lines = turn.slowCommand ? Array.from({ length: SLOW_LINES }, (_, i) => `checking step ${i + 1}…`) : CHECK_LINES;
  try {
    actor.emit({ sessionUpdate: 'terminal_update', terminalId, command: `node -e "${CHECK_SCRIPT}"`, cwd: path.isAbsolute(turn.cwd) ? turn.cwd : null, capabilities: cancel });
    await actor.updateTool(toolCallId, { status: 'in_progress', content, capabilities: cancel });
    for (const line of lines) {
      await sleep(turn.slowCommand ? Math.max(actor.ctx.pace, 200) : actor.ctx.pace / 2, scope);
      scope.throwIfCancelled();
      actor.emit({ sessionUpdate: 'terminal_output_chunk', terminalId, data: Buffer.from(`${line}\n`).toString('base64') });
    }
    actor.emit({ sessionUpdate: 'terminal_update', terminalId, exitStatus: { exitCode: 0 }, capabilities: null });
    await actor.endTool(toolCallId, 'completed', { content, capabilities: null, rawOutput: { exitCode: 0 } });
  } catch (error) {
    // The whole turn was cancelled: the actor closes its open calls. Only this command: say so, and go on.
    if (!(error instanceof Cancelled) || actor.scope.cancelled) throw error;
    actor.emit({ sessionUpdate: 'terminal_update', terminalId, exitStatus: { exitCode: null, signal: 'SIGTERM' }, capabilities: null });
    await actor.endTool(toolCallId, 'cancelled', { content: [...content, textContent('Cancelled by the user; the turn goes on.')], capabilities: null });
    await actor.say('\n\nYou stopped the command; I will carry on without its result.');
  } finally {
    for (const off of unregister) off();
  }
}

async function releaseTerminal(actor: Actor, terminalId: string): Promise<void> {
  try {
    await actor.clientRequest('terminal/release', { terminalId });
  } catch (error) {
    actor.ctx.log(`terminal/release failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

interface NamedOutcome {
  readonly title: string;
  readonly outcome?: ChildOutcome;
}

async function delegate(actor: Actor, turn: TurnSettings): Promise<NamedOutcome[]> {
  const delegation = turn.delegation;
  if (delegation?.policy === 'disable') {
    await actor.say('\n\nDelegation is disabled for this prompt, so I did the work myself.');
    return [];
  }
  const runMode = delegation?.runMode === 'background' ? 'background' : 'foreground';
  const wanted = SUBAGENT_CATALOG.filter((entry) => !delegation?.subagentId || entry.id === delegation.subagentId);
  const chosen = wanted.length > 0 ? wanted : SUBAGENT_CATALOG;
  await actor.say(`\n\nNow I'll hand ${chosen.length === 2 ? 'two independent jobs to subagents that run in parallel' : 'one job to a subagent'}.`);
  await actor.pause();
  const runs = chosen.map((entry) => {
    const spec = entry.id === 'explorer' ? explorerSpec(runMode) : reviewerSpec(runMode);
    const body = entry.id === 'explorer' ? (child: Actor) => explorer(child, turn) : (child: Actor) => reviewer(child, turn);
    return { title: entry.title, run: actor.spawn(spec, body) };
  });
  if (runMode === 'background') {
    await actor.say('\n\nThey run in the background; their results will show up in their own chats.');
    return runs.map(({ title }) => ({ title }));
  }
  await actor.say('\n\nWaiting for the subagents…');
  // A steer (or a relay for one of them) is read while they work, not only once they are done.
  return actor.waitReadingSteers(Promise.all(runs.map(async ({ title, run }) => ({ title, outcome: await run }))));
}

function explorerSpec(runMode: 'foreground' | 'background'): ChildSpec {
  return {
    subagentId: 'explorer',
    title: 'Explorer',
    description: 'Find TODO markers in the workspace',
    prompt: 'Search the workspace for TODO markers and report how many there are. Delegate the deep scan to a scout.',
    cancellable: true,
    runMode,
  };
}

function reviewerSpec(runMode: 'foreground' | 'background'): ChildSpec {
  return {
    subagentId: 'reviewer',
    title: 'Reviewer',
    description: 'Review the notes change',
    prompt: `Review the change to ${DEMO_DIR}/notes.md and write your review to ${DEMO_DIR}/review.md.`,
    cancellable: false,
    runMode,
  };
}

async function explorer(actor: Actor, turn: TurnSettings): Promise<string> {
  if (turn.showThoughts) await actor.say('I should search for TODO markers first, then let a scout do the slow full scan.', 'thought');
  await actor.say('Searching the workspace for `TODO` markers.');
  const grep: ToolSpec = { title: 'grep "TODO" .', kind: 'search', name: 'Grep', rawInput: { pattern: 'TODO', path: turn.cwd } };
  const id = await actor.startTool(grep);
  await actor.endTool(id, 'completed', { content: [textContent('Found 3 matches in 2 files')], rawOutput: 'Found 3 matches in 2 files' });
  await actor.say('\n\nThe full scan is slow, so I am handing it to a scout.');
  const scoutSpec: ChildSpec = {
    subagentId: 'scout',
    title: 'Scout',
    description: 'Scan every file of the workspace',
    prompt: 'Scan every file of the workspace and count the files and TODO markers.',
    cancellable: true,
    runMode: 'foreground',
  };
  const scoutOutcome = await actor.spawn(scoutSpec, (child) => scout(child, turn.childDuration));
  const scoutSaid = scoutOutcome.stopReason === 'end_turn' ? scoutOutcome.reply : `the scout stopped (${scoutOutcome.stopReason})`;
  const reply = `Explorer report: 3 TODO markers in 2 files; ${scoutSaid}`;
  await actor.say(`\n\n${reply}`);
  return reply;
}

/** The grandchild; it keeps working for `minDuration` ms so a person or a test can cancel it. */
async function scout(actor: Actor, minDuration: number): Promise<string> {
  await actor.say('Scanning the workspace…');
  const id = await actor.startTool({ title: 'Scan workspace files', kind: 'search', name: 'Glob', rawInput: { pattern: '**/*' } });
  await actor.updateTool(id, { status: 'in_progress' });
  const started = Date.now();
  const tick = Math.max(actor.ctx.pace, 50);
  let scanned = 0;
  do {
    scanned += 7;
    await actor.updateTool(id, { content: [textContent(`Scanned ${scanned} files…`)] });
    const left = minDuration - (Date.now() - started);
    if (left > 0) await actor.pause(Math.min(tick, left));
  } while (Date.now() - started < minDuration);
  await actor.endTool(id, 'completed', { content: [textContent(`Scanned ${scanned} files`)] });
  const reply = `Scout: scanned ${scanned} files, 3 TODO markers.`;
  await actor.say(`\n\n${reply}`);
  return reply;
}

async function reviewer(actor: Actor, turn: TurnSettings): Promise<string> {
  await actor.say('Reviewing the change to the notes.');
  await actor.plan([
    { content: 'Read the change', priority: 'medium', status: 'completed' },
    { content: 'Write the review', priority: 'medium', status: 'in_progress' },
  ]);
  const reviewPath = demoFile(turn.cwd, 'review.md');
  const review = `# Review\n\n- The notes change looks good.\n- Reviewed at ${new Date().toISOString()}.\n`;
  const diffPath = reviewPath ?? `${DEMO_DIR}/review.md`;
  const content = [{ type: 'diff', path: diffPath, oldText: null, newText: review }];
  const tool: ToolSpec = {
    title: `Write ${fileLabel(reviewPath, 'review.md')}`,
    kind: 'edit',
    name: 'Write',
    rawInput: { file_path: diffPath, content: review },
    content,
    locations: [{ path: diffPath }],
  };
  const id = await actor.startTool(tool);
  const result = await writeWithPermission(actor, turn, id, tool, content, reviewPath, review);
  await actor.endTool(id, result.ok ? 'completed' : 'failed', { content: [...content, textContent(result.text)] });
  await actor.plan([
    { content: 'Read the change', priority: 'medium', status: 'completed' },
    { content: 'Write the review', priority: 'medium', status: 'completed' },
  ]);
  const reply = result.ok ? 'Reviewer: the change looks good; review notes written.' : 'Reviewer: the change looks good, but I was not allowed to write the review.';
  await actor.say(`\n\n${reply}`);
  return reply;
}

function summaryText(outcomes: NamedOutcome[]): string {
  const lines = outcomes.map(({ title, outcome }) => `- **${title}**: ${outcome === undefined ? 'still running in the background' : outcome.stopReason === 'end_turn' ? outcome.reply : `stopped (${outcome.stopReason})`}`);
  return [
    '\n\n## Summary\n',
    ...(lines.length > 0 ? [lines.join('\n'), ''] : []),
    'Here is the kind of snippet a real agent would hand back:\n',
    fence('export function greet(name: string): string {\n  return `Hello, ${name}!`;\n}', 'ts'),
    '',
    'That is the whole tour.',
  ].join('\n');
}

function fence(text: string, language: string): string {
  return `\`\`\`${language}\n${text.replace(/\n$/, '')}\n\`\`\``;
}

/** Reads `delegation` from a session/prompt (PR #855 draft) leniently. */
export function parseDelegation(value: Json | undefined): Delegation | undefined {
  if (!isObject(value) || typeof value.policy !== 'string') return undefined;
  const runMode = value.runMode === 'background' || value.runMode === 'foreground' ? value.runMode : undefined;
  return { policy: value.policy, subagentId: typeof value.subagentId === 'string' ? value.subagentId : undefined, runMode };
}
