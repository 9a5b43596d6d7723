// Syntax highlighting for the chat's code blocks, kept off the streaming path. Only finished blocks (a whole
// fenced block, or a finished piece of a long one) are offered, never the open one that grows with each chunk;
// each is highlighted once, when it first comes near the screen, in an idle moment long enough for it (a long
// transcript costs nothing for the blocks nobody scrolls to, and a stream is never slowed for colour). The
// highlighter and each language are chunks of their own, loaded when a block first needs them. Highlighting
// only wraps the block's text in spans: the `pre` says exactly what it said before.
import { codeTokenCss, codeTokenKind } from '../../src/presentation';
import { highlightLanguage, type HighlightLanguage } from './highlightLanguages';
import type * as HighlighterModule from './highlighter';
import { MAX_BLOCK_CHARS } from './markdownBlocks';

type Highlighter = typeof HighlighterModule;

/** Where the build puts the highlighter (scripts/build.mjs): beside this bundle, loaded on first need. */
const HIGHLIGHTER_URL = new URL('./webview-chunks/highlighter.js', import.meta.url).href;

/** Blocks longer than this are left plain (pieces of a long block are at most MAX_BLOCK_CHARS and a line end). */
const MAX_HIGHLIGHT_CHARS = MAX_BLOCK_CHARS + 1;
/** Starts highlighting a block this far before it scrolls into view. */
const NEAR_SCREEN = '300px 0px';
/**
 * What highlighting costs, roughly, per character (tokens and spans: 13-31 ms for a 16 KB piece of TypeScript on
 * a loaded 2-core machine), to start a block only in an idle moment long enough for it.
 */
const MS_PER_CHAR = 2 / 1024;
/** The longest idle moment the browser gives is 50 ms; a block that needs more runs in one that long anyway. */
const LONGEST_IDLE_MS = 40;

const LANGUAGE_CLASS = /(?:^|\s)language-([\w-]+)(?:\s|$)/;

let highlighter: Highlighter | undefined;
let highlighterLoad: Promise<Highlighter> | undefined;
/** Languages registered with the highlighter, being loaded, or that failed to load (never tried again). */
const registered = new Set<HighlightLanguage>();
const loading = new Map<HighlightLanguage, Promise<void>>();
const failed = new Set<HighlightLanguage>();
/** Shown blocks waiting for an idle moment. */
const waiting: HTMLElement[] = [];
let idleRequested = false;
let observer: IntersectionObserver | undefined;

const classes = new Map<string, string | undefined>();

/** The class of a highlighter scope's span (one per kind of token; see codeTokenStyles). */
function classOf(scope: string): string | undefined {
  if (!classes.has(scope)) {
    const kind = codeTokenKind(scope);
    classes.set(scope, kind ? codeTokenCss(kind).className : undefined);
  }
  return classes.get(scope);
}

/** The language a `code` element is highlighted in, if the chat highlights it. */
function languageOf(code: Element): HighlightLanguage | undefined {
  const lang = LANGUAGE_CLASS.exec(code.className)?.[1];
  const name = lang !== undefined ? highlightLanguage(lang) : undefined;
  return name !== undefined && !failed.has(name) ? name : undefined;
}

/**
 * Offers the finished code blocks in `root` (a block's fragment or its nodes) for highlighting: each is
 * highlighted when it first comes near the screen.
 */
export function highlightWhenShown(root: ParentNode): void {
  for (const code of root.querySelectorAll<HTMLElement>('pre > code[class*="language-"]')) {
    if (languageOf(code) === undefined || (code.textContent?.length ?? 0) > MAX_HIGHLIGHT_CHARS) continue;
    observer ??= new IntersectionObserver(onShown, { rootMargin: NEAR_SCREEN });
    observer.observe(code);
  }
}

function onShown(entries: IntersectionObserverEntry[]): void {
  for (const entry of entries) {
    if (!entry.isIntersecting) continue;
    observer?.unobserve(entry.target);
    waiting.push(entry.target as HTMLElement);
  }
  requestIdle();
}

function requestIdle(): void {
  if (idleRequested || waiting.length === 0) return;
  idleRequested = true;
  // No timeout: colour never competes with text streaming in; a block waits for the stream to pause.
  requestIdleCallback(highlightWaiting);
}

/** Highlights waiting blocks while the idle moment has time for the next one. */
function highlightWaiting(deadline: IdleDeadline): void {
  idleRequested = false;
  for (let next = waiting[0]; next; next = waiting[0]) {
    const cost = Math.min(LONGEST_IDLE_MS, (next.textContent?.length ?? 0) * MS_PER_CHAR);
    if (deadline.timeRemaining() < cost) break;
    waiting.shift();
    highlightBlock(next);
  }
  requestIdle();
}

/** Highlights a shown block now, or once its language has loaded. */
function highlightBlock(code: HTMLElement): void {
  const language = languageOf(code);
  if (!code.isConnected || language === undefined) return;
  if (!highlighter || !registered.has(language)) {
    void load(language).then(() => {
      waiting.push(code);
      requestIdle();
    });
    return;
  }
  const text = code.textContent ?? '';
  const highlighted = highlighter.highlight(text, language, classOf);
  // Never change what the block says.
  if (highlighted.textContent === text) code.replaceChildren(highlighted);
}

/** Loads the highlighter and a language (each once); a language that fails to load is left plain from then on. */
function load(language: HighlightLanguage): Promise<void> {
  let pending = loading.get(language);
  if (!pending) {
    highlighterLoad ??= import(HIGHLIGHTER_URL) as Promise<Highlighter>;
    pending = highlighterLoad
      .then(async (loaded) => {
        await loaded.loadLanguage(language);
        highlighter = loaded;
        registered.add(language);
      })
      .catch(() => {
        failed.add(language);
      });
    loading.set(language, pending);
  }
  return pending;
}
