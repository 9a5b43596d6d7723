// Subchats: Search Chats…: which chats match what the user typed, by title, agent name, start date or the words
// of the transcript, with the line that matched. It reads the sessions the extension already holds (history is
// loaded into them at activation, live and opened transcripts are there too), so it opens no file and copies no
// transcript: each query walks the entries in place, bounded in what it reads and in how many chats it returns.
import type { Entry, ToolCallRecord } from '../protocol/transcript';
import { calendarDay } from '../presentation/time';

/** What the search reads of a session (the store's session records fit). */
interface SearchedSession {
  readonly id: string;
  readonly label: string;
  readonly parentId: string | null;
  readonly createdAt: number;
  readonly entries: readonly Entry[];
  readonly toolCalls: Readonly<Record<string, ToolCallRecord>>;
}

export interface SearchedConnection {
  readonly id: string;
  readonly agentName: string;
  /** When the connection began: the date of a session that has none of its own. */
  readonly startedAt: number;
  readonly sessions: readonly SearchedSession[];
}

export interface ChatMatch {
  readonly connectionId: string;
  readonly sessionId: string;
  readonly title: string;
  readonly agentName: string;
  readonly startedAt: number;
  /** The parent's title, for a subagent's chat. */
  readonly parentTitle?: string;
  /** The words around the first term found in the transcript; when none had to be, how the chat began. */
  readonly snippet?: string;
}

export interface SearchLimits {
  /** Most chats returned (the newest first). */
  readonly maxResults: number;
  /** Most characters of transcript text one query reads; chats past it match by title, agent and date only. */
  readonly maxScannedChars: number;
}

export interface SearchResult {
  readonly matches: readonly ChatMatch[];
  /** More chats matched than `maxResults`, or the text bound stopped the reading: the user may narrow the query. */
  readonly incomplete: boolean;
}

const DEFAULT_LIMITS: SearchLimits = { maxResults: 200, maxScannedChars: 50_000_000 };
const SNIPPET_BEFORE = 40;
const SNIPPET_AFTER = 100;
const DATE = /^\d{4}(-\d{1,2}(-\d{1,2})?)?$/;

/**
 * Every chat in which each word of `query` is found in its title, its agent's name, its start date
 * (`2026-12`, `2026-12-01`) or its transcript (prompts, answers, messages between sessions, tool call titles);
 * `"quoted words"` are one term. Newest first.
 */
export function searchChats(connections: readonly SearchedConnection[], query: string, options: { utc?: boolean; limits?: Partial<SearchLimits> } = {}): SearchResult {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const terms = parseQuery(query);
  const chats = connections.flatMap((connection) => connection.sessions.map((session) => ({ connection, session, startedAt: session.createdAt || connection.startedAt })));
  chats.sort((a, b) => b.startedAt - a.startedAt);
  const matches: ChatMatch[] = [];
  let budget = limits.maxScannedChars;
  let incomplete = false;
  for (const { connection, session, startedAt } of chats) {
    const day = calendarDay(startedAt, options.utc);
    let snippet: string | undefined;
    let matched = true;
    for (const term of terms) {
      if (term.pattern.test(session.label) || term.pattern.test(connection.agentName) || (term.date && day.startsWith(term.date))) continue;
      if (budget <= 0) {
        incomplete = true;
        matched = false;
        break;
      }
      const found = findInTranscript(session, term.pattern, budget);
      budget -= found.scanned;
      if (!found.snippet) {
        matched = false;
        break;
      }
      snippet ??= found.snippet;
    }
    if (!matched) continue;
    if (matches.length === limits.maxResults) {
      incomplete = true;
      break;
    }
    const parent = session.parentId ? connection.sessions.find((s) => s.id === session.parentId) : undefined;
    snippet ??= firstPrompt(session);
    matches.push({
      connectionId: connection.id,
      sessionId: session.id,
      title: session.label,
      agentName: connection.agentName,
      startedAt,
      ...(parent ? { parentTitle: parent.label } : {}),
      ...(snippet ? { snippet } : {}),
    });
  }
  return { matches, incomplete };
}

interface Term {
  readonly pattern: RegExp;
  /** The term as a date (`2026-12-01`, zero-padded), when it reads as one. */
  readonly date?: string;
}

function parseQuery(query: string): Term[] {
  const words = [...query.matchAll(/"([^"]+)"|(\S+)/g)].map((m) => (m[1] ?? m[2]!).trim()).filter(Boolean);
  return words.map((word) => ({
    pattern: new RegExp(word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+'), 'iu'),
    ...(DATE.test(word) ? { date: word.split('-').map((part, i) => (i === 0 ? part : part.padStart(2, '0'))).join('-') } : {}),
  }));
}

/** The words around the first place `pattern` is found, reading at most `budget` characters. */
function findInTranscript(session: SearchedSession, pattern: RegExp, budget: number): { snippet?: string; scanned: number } {
  let scanned = 0;
  for (const text of transcriptTexts(session)) {
    const part = scanned + text.length > budget ? text.slice(0, budget - scanned) : text;
    scanned += part.length;
    const match = pattern.exec(part);
    if (match) return { snippet: around(part, match.index, match[0].length), scanned };
    if (scanned >= budget) break;
  }
  return { scanned };
}

/** The searchable words of a transcript, in order: what was said (thoughts left out) and what tools were called. */
function* transcriptTexts(session: SearchedSession): Generator<string> {
  for (const entry of session.entries) {
    if (entry.kind === 'message' && entry.role !== 'thought') yield entry.text;
    else if (entry.kind === 'sessionMessage') yield entry.text;
    else if (entry.kind === 'toolCall') {
      const title = session.toolCalls[entry.toolCallId]?.title;
      if (title) yield title;
    }
  }
}

function firstPrompt(session: SearchedSession): string | undefined {
  const prompt = session.entries.find((entry) => entry.kind === 'message' && entry.role === 'user' && entry.text.trim());
  return prompt?.kind === 'message' ? around(prompt.text, 0, 0) : undefined;
}

/** One line of the text around [index, index + length), cut at word-ish bounds with an ellipsis where cut. */
function around(text: string, index: number, length: number): string {
  const start = Math.max(0, index - SNIPPET_BEFORE);
  const end = Math.min(text.length, index + length + SNIPPET_AFTER);
  const line = text.slice(start, end).replace(/\s+/g, ' ').trim();
  return `${start > 0 ? '…' : ''}${line}${end < text.length ? '…' : ''}`;
}
