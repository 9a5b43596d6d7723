// A chat as a Markdown file (Subchats: Export Chat as Markdown…): the transcript in reading order, each subagent
// nested as its own section where its parent spawned it. Agent text stays as the agent wrote it (it is Markdown
// already); what the export wraps around it cannot be broken by it: tool output goes in a fence longer than any
// backtick run it holds, a message that leaves a fence open gets it closed, and a folded thought cannot close its fold.
import type { ContentBlock, Entry, PlanEntry, TerminalRecord, ToolCallContent, ToolCallRecord } from '../protocol/transcript';
import { changePath } from './changes';
import { diffLines, hunks } from './lineDiff';
import { t } from './l10n';
import { permissionAnswer } from './permission';
import { plainText } from './plainText';
import { clockTime, dayAndTime } from './time';
import { presentToolStatus } from './toolCall';

/** What the export reads of a session (the store's session records fit). */
interface MarkdownSession {
  readonly id: string;
  readonly label: string;
  readonly createdAt: number;
  readonly subagentType?: string | null;
  readonly childIds: readonly string[];
  readonly entries: readonly Entry[];
  readonly toolCalls: Readonly<Record<string, ToolCallRecord>>;
  readonly terminals: Readonly<Record<string, TerminalRecord>>;
}

export interface ChatMarkdownSource {
  /** Who answered: the agent's name as the tree shows it. */
  readonly agentName: string;
  session(id: string): MarkdownSession | undefined;
  /** The folder the agent worked in: paths under it are written relative to it. */
  readonly cwd?: string | null;
}

export interface ChatMarkdownOptions {
  /** Times in UTC instead of local time (tests). */
  readonly utc?: boolean;
  /** Most characters of one tool output written out; the rest is counted, not exported (the JSONL transcript has it all). */
  readonly maxOutputChars?: number;
}

const DEFAULT_MAX_OUTPUT_CHARS = 4000;

/** The session `sessionId` and its subagents, as one Markdown document. */
export function chatMarkdown(source: ChatMarkdownSource, sessionId: string, options: ChatMarkdownOptions = {}): string {
  const session = source.session(sessionId);
  if (!session) return '';
  const writer = new ChatWriter(source, options);
  writer.session(session, 1, new Set());
  return writer.text();
}

/** A file name for the export: the session's title without what file systems refuse, `.md` at the end. */
export function markdownFileName(label: string): string {
  const name = plainText(label)
    .replace(/[\\/:*?"<>|#%]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 80)
    .replace(/[. ]+$/, '');
  return `${name || 'chat'}.md`;
}

class ChatWriter {
  private readonly blocks: string[] = [];
  private readonly maxOutputChars: number;

  constructor(
    private readonly source: ChatMarkdownSource,
    private readonly options: ChatMarkdownOptions,
  ) {
    this.maxOutputChars = options.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS;
  }

  text(): string {
    return `${this.blocks.join('\n\n')}\n`;
  }

  /** A session's section at heading `level`, its subagents one level deeper where they were spawned. */
  session(session: MarkdownSession, level: number, written: Set<string>): void {
    written.add(session.id);
    const title = oneLine(session.label) || t('Chat');
    this.blocks.push(`${'#'.repeat(Math.min(level, 6))} ${level === 1 ? title : t('Subagent: {0}', title)}`);
    const about = [level === 1 ? this.source.agentName : session.subagentType ? oneLine(session.subagentType) : '', t('started {0}', dayAndTime(session.createdAt, this.options.utc))].filter(Boolean);
    this.blocks.push(about.join(' · '));
    for (const entry of session.entries) {
      if (entry.kind === 'child') {
        const child = this.source.session(entry.childSessionId);
        if (child && !written.has(child.id)) this.session(child, level + 1, written);
      } else this.entry(session, entry);
    }
    // Children the transcript never placed (no spawn entry) follow their parent's own transcript.
    for (const childId of session.childIds) {
      const child = this.source.session(childId);
      if (child && !written.has(child.id)) this.session(child, level + 1, written);
    }
  }

  private entry(session: MarkdownSession, entry: Exclude<Entry, { kind: 'child' }>): void {
    const at = clockTime(entry.at, this.options.utc);
    switch (entry.kind) {
      case 'message': {
        const text = plainText(entry.text);
        if (entry.role === 'thought') {
          if (text.trim()) this.blocks.push(`<details>\n<summary>${t('Thinking ({0})', at)}</summary>\n\n${foldable(closeOpenFence(text))}\n\n</details>`);
          return;
        }
        const who = entry.role === 'user' ? (entry.addedByAgent ? t('You (added by the agent)') : t('You')) : this.source.agentName;
        this.blocks.push(`**${who}** (${at})`);
        if (text.trim()) this.blocks.push(closeOpenFence(text.trim()));
        const attachments = entry.attachments.map(attachmentLine).filter((line): line is string => !!line);
        if (attachments.length > 0) this.blocks.push(attachments.join('\n'));
        return;
      }
      case 'toolCall': {
        const call = session.toolCalls[entry.toolCallId];
        if (call) this.toolCall(session, call, at);
        return;
      }
      case 'plan':
        this.blocks.push(entry.removed ? t('**Plan** (removed) ({0})', at) : t('**Plan** ({0})', at), entry.entries.map(planLine).join('\n') || t('(no steps)'));
        return;
      case 'sessionMessage': {
        const otherId = entry.direction === 'outgoing' ? entry.recipientSessionId : entry.senderSessionId;
        const other = otherId ? this.source.session(otherId)?.label : undefined;
        const heading = entry.direction === 'outgoing'
          ? other ? t('Message to "{0}"', oneLine(other)) : t('Message to another session')
          : other ? t('Message from "{0}"', oneLine(other)) : t('Message from another session');
        this.blocks.push(`**${heading}** (${at})`);
        const text = plainText(entry.text).trim();
        if (text) this.blocks.push(quoted(closeOpenFence(text)));
        return;
      }
      case 'permission':
        this.blocks.push(t('**Permission asked** ({0}): {1} — {2}', at, oneLine(entry.title), permissionAnswer(entry)));
        return;
      case 'elicitation':
        this.blocks.push(t('**Question from the agent** ({0}): {1} — {2}', at, oneLine(entry.message), entry.outcome));
        return;
      case 'notice':
        this.blocks.push(`${t('**Note** ({0}): {1}', at, oneLine(entry.title))}${entry.description ? ` — ${oneLine(entry.description)}` : ''}`);
        return;
    }
  }

  private toolCall(session: MarkdownSession, call: ToolCallRecord, at: string): void {
    const title = oneLine(call.title) || oneLine(call.kind) || t('Tool call');
    const kind = call.kind && call.kind !== 'other' ? ` · ${oneLine(call.kind)}` : '';
    this.blocks.push(t('**Tool call: {0}**{1} · {2} ({3})', title, kind, presentToolStatus(call).label, at));
    const places = call.locations.filter((l) => typeof l.path === 'string').map((l) => `- ${codeSpan(`${changePath(l.path, this.source.cwd ?? null)}${typeof l.line === 'number' ? `:${l.line}` : ''}`)}`);
    if (places.length > 0) this.blocks.push(places.join('\n'));
    for (const content of call.content) {
      const shown = this.toolContent(session, content);
      if (shown) this.blocks.push(shown);
    }
  }

  private toolContent(session: MarkdownSession, content: ToolCallContent): string | undefined {
    if (content.type === 'content') {
      const block = (content as { content?: ContentBlock }).content;
      if (block?.type === 'text' && typeof block.text === 'string' && block.text.trim()) return folded(t('Output'), this.fenced(plainText(block.text), ''));
      return block ? attachmentLine(block) : undefined;
    }
    if (content.type === 'diff') return this.diff(content as Readonly<Record<string, unknown>>);
    if (content.type === 'terminal') {
      const terminal = session.terminals[(content as { terminalId: string }).terminalId];
      if (!terminal) return undefined;
      const command = plainText([terminal.command, ...(Array.isArray(terminal.args) ? terminal.args : [])].join(' '));
      const exit = terminal.exitStatus ? terminal.exitStatus.exitCode ?? terminal.exitStatus.signal ?? '?' : undefined;
      return folded(exit === undefined ? t('Terminal: {0}', oneLine(command)) : t('Terminal: {0} (exit {1})', oneLine(command), exit), this.fenced(`$ ${command}\n${plainText(terminal.output ?? '')}`, 'console'));
    }
    return undefined;
  }

  /** ACP v1 `{path, oldText, newText}` as unified hunks; v2 `{changes, patch}` as the files and the git patch. */
  private diff(diff: Readonly<Record<string, unknown>>): string | undefined {
    const where = (path: string) => oneLine(changePath(path, this.source.cwd ?? null));
    if (typeof diff['path'] === 'string' && typeof diff['newText'] === 'string') {
      const oldText = typeof diff['oldText'] === 'string' ? diff['oldText'] : null;
      const lines = diffLines(oldText, diff['newText']);
      const body = lines.lines ? hunks(lines.lines).map((hunk) => hunk.lines.map((line) => `${line.op}${line.text}`).join('\n')).join('\n@@\n') : t('({0} lines added, {1} removed: too large to show)', lines.added, lines.removed);
      return folded(t('Changes to {0} (+{1} −{2})', where(diff['path']), lines.added, lines.removed), this.fenced(plainText(body), 'diff'));
    }
    const changes = Array.isArray(diff['changes']) ? diff['changes'].filter((c): c is { path: string; operation?: unknown } => typeof (c as { path?: unknown } | null)?.path === 'string') : [];
    if (changes.length === 0) return undefined;
    const files = changes.map((c) => `${typeof c.operation === 'string' ? oneLine(c.operation) : t('change')} ${where(c.path)}`).join(', ');
    const patch = diff['patch'] as { text?: unknown } | undefined;
    return typeof patch?.text === 'string' && patch.text.trim() ? folded(t('Changes: {0}', files), this.fenced(plainText(patch.text), 'diff')) : t('Changes: {0}', files);
  }

  /** Text in a fence it cannot close, cut to the output bound. */
  private fenced(text: string, info: string): string {
    const cut = text.length > this.maxOutputChars ? `${text.slice(0, this.maxOutputChars)}\n${t('… {0} more characters not exported', text.length - this.maxOutputChars)}` : text;
    const fence = '`'.repeat(Math.max(3, longestRun(cut, '`') + 1));
    return `${fence}${info}\n${cut.replace(/\n+$/, '')}\n${fence}`;
  }
}

/** Longest run of `char` in `text`. */
function longestRun(text: string, char: string): number {
  let longest = 0;
  let run = 0;
  for (const c of text) {
    run = c === char ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return longest;
}

const FENCE_LINE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/**
 * The text with a closing fence added when it leaves a code fence open (an answer cut off mid-block), so the
 * rest of the export does not turn into code. CommonMark: a fence closes with the same character, at least as many.
 */
function closeOpenFence(text: string): string {
  let open: string | undefined;
  for (const line of text.split('\n')) {
    const match = FENCE_LINE.exec(line);
    if (!match) continue;
    const fence = match[1]!;
    if (open === undefined) {
      // A backtick fence's info string may not hold a backtick.
      if (!(fence[0] === '`' && match[2]!.includes('`'))) open = fence;
    } else if (fence[0] === open[0] && fence.length >= open.length && !match[2]!.trim()) open = undefined;
  }
  return open === undefined ? text : `${text}\n${open}`;
}

/** Thought text inside `<details>`: a `</details>` of its own would close the fold early, so it reads `<\/details>` (still `</details>` on screen). */
function foldable(text: string): string {
  return text.replace(/<\/(details)/gi, '<\\/$1');
}

function folded(summary: string, body: string): string {
  return `<details>\n<summary>${escapeHtml(summary)}</summary>\n\n${body}\n\n</details>`;
}

function quoted(text: string): string {
  return text
    .split('\n')
    .map((line) => (line ? `> ${line}` : '>'))
    .join('\n');
}

function planLine(step: PlanEntry): string {
  return `- [${step.status === 'completed' ? 'x' : ' '}] ${oneLine(step.content)}${step.status === 'in_progress' ? ` ${t('(in progress)')}` : ''}`;
}

/** A non-text block of a message as one line: what it is and where it points, never a link. */
function attachmentLine(block: ContentBlock): string | undefined {
  const str = (value: unknown) => (typeof value === 'string' ? value : undefined);
  switch (block.type) {
    case 'text':
      return undefined;
    case 'resource_link':
      return `- ${t('Attachment: {0}', codeSpan(str(block['title']) ?? str(block['name']) ?? str(block['uri']) ?? t('link')))}`;
    case 'resource': {
      const resource = (block['resource'] ?? {}) as Record<string, unknown>;
      return `- ${t('Attachment: {0}', codeSpan(str(resource['uri']) ?? t('embedded resource')))}`;
    }
    default:
      const mimeType = str(block['mimeType']);
      return `- ${mimeType ? t('Attachment: {0} ({1})', oneLine(block.type), oneLine(mimeType)) : t('Attachment: {0}', oneLine(block.type))}`;
  }
}

/** Agent text on one line of the export's own structure (a heading, a label); nothing for what is not text. */
function oneLine(text: unknown): string {
  return typeof text === 'string' ? plainText(text).replace(/\s+/g, ' ').trim() : '';
}

/** A code span its text cannot end: delimiters longer than any backtick run inside (CommonMark pads with spaces). */
function codeSpan(text: string): string {
  const body = oneLine(text);
  const ticks = '`'.repeat(longestRun(body, '`') + 1);
  const pad = body.startsWith('`') || body.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${body}${pad}${ticks}`;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
