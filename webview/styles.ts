// The chat's one stylesheet, adopted by the document (constructable stylesheets need no 'unsafe-inline').
// Components render into light DOM so codicons (a document-level font) and this sheet apply everywhere.
// Only VS Code theme variables are used for colour, so light, dark and high-contrast themes just work.
import { css } from 'lit';
import { codeTokenRules } from './lib/codeTokenStyles';

const chatStyles = css`
  :root {
    --subchats-gap: 8px;
    --subchats-radius: 4px;
    --subchats-border: var(--vscode-panel-border, var(--vscode-widget-border, rgba(128, 128, 128, 0.35)));
  }
  body {
    margin: 0;
    padding: 0;
    color: var(--vscode-foreground);
    background: var(--vscode-editor-background);
    font-family: var(--vscode-font-family);
    font-size: var(--vscode-font-size, 13px);
  }
  /*
   * The panel is one column of fixed rows around one scroller: the header, the transcript (the only part that
   * scrolls; subchats-transcript[follow]) and the prompt box. Nothing is sticky or overlaid, so the header never
   * covers an entry and the prompt box sits at the bottom from the start.
   */
  subchats-app {
    display: flex;
    flex-direction: column;
    height: 100vh;
  }
  subchats-app > .sc-header,
  subchats-app > subchats-prompt-box,
  subchats-app > p {
    flex: none;
    margin: 0;
    padding-left: 12px;
    padding-right: 12px;
  }
  subchats-app > main {
    flex: 1 1 0;
    min-height: 0;
    display: flex;
    flex-direction: column;
  }
  subchats-transcript[follow] {
    display: block;
    flex: 1 1 0;
    min-height: 0;
    overflow-y: auto;
    /* The transcript places the view itself (it follows the end, stepping a screen at a time); the browser's
       scroll anchoring would move it again as a streaming message grows around its anchor line. */
    overflow-anchor: none;
    padding: 0 12px;
  }
  button {
    font: inherit;
    color: inherit;
  }
  :focus-visible {
    outline: 1px solid var(--vscode-focusBorder);
    outline-offset: 1px;
  }
  /* High contrast themes draw every boundary with the contrast colours. */
  body.vscode-high-contrast,
  body.vscode-high-contrast-light {
    --subchats-border: var(--vscode-contrastBorder, currentColor);
  }
  body.vscode-high-contrast :focus-visible,
  body.vscode-high-contrast-light :focus-visible {
    outline: 1px dashed var(--vscode-contrastActiveBorder, var(--vscode-focusBorder));
  }
  .sc-button {
    display: inline-flex;
    align-items: center;
    gap: 4px;
    padding: 2px 8px;
    border: 1px solid var(--vscode-button-border, transparent);
    border-radius: 2px;
    background: var(--vscode-button-background);
    color: var(--vscode-button-foreground);
    cursor: pointer;
  }
  .sc-button:hover {
    background: var(--vscode-button-hoverBackground);
  }
  .sc-button.secondary {
    background: var(--vscode-button-secondaryBackground);
    color: var(--vscode-button-secondaryForeground);
  }
  .sc-button.secondary:hover {
    background: var(--vscode-button-secondaryHoverBackground);
  }
  .sc-button:disabled {
    opacity: 0.5;
    cursor: default;
  }
  .sc-icon-button {
    display: inline-flex;
    align-items: center;
    justify-content: center;
    min-width: 22px;
    height: 22px;
    padding: 0 3px;
    border: none;
    border-radius: 5px;
    background: transparent;
    cursor: pointer;
    color: var(--vscode-icon-foreground, inherit);
  }
  .sc-icon-button:hover {
    background: var(--vscode-toolbar-hoverBackground);
  }
  .sc-link {
    border: none;
    background: none;
    padding: 0;
    color: var(--vscode-textLink-foreground);
    cursor: pointer;
    text-decoration: none;
  }
  .sc-link:hover {
    text-decoration: underline;
    color: var(--vscode-textLink-activeForeground);
  }
  .sc-muted {
    color: var(--vscode-descriptionForeground);
  }
  /* A request the host refused, under the control the user used (webview/components/refusal.ts). */
  .sc-refusal {
    margin: 2px 0;
    font-size: 0.92em;
  }
  .sc-refusal > .codicon {
    color: var(--vscode-errorForeground);
  }
  .sc-row {
    display: flex;
    align-items: center;
    gap: 6px;
    min-width: 0;
  }
  .sc-grow {
    flex: 1 1 auto;
    min-width: 0;
  }
  .sc-ellipsis {
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  pre,
  code {
    font-family: var(--vscode-editor-font-family, monospace);
    font-size: var(--vscode-editor-font-size, 12px);
  }
  /* VS Code's default webview styles colour inline code (textPreformat); inside a block that drew a band per line. */
  pre code {
    color: inherit;
    background: none;
    padding: 0;
    border-radius: 0;
  }
  pre {
    margin: 4px 0;
    padding: 6px 8px;
    overflow: auto;
    max-height: 480px;
    background: var(--vscode-textCodeBlock-background);
    border-radius: var(--subchats-radius);
  }

  /* Header: one line (breadcrumb, state, usage, controls); details on demand under it */
  .sc-header {
    padding-top: 4px;
    padding-bottom: 4px;
    border-bottom: 1px solid var(--subchats-border);
  }
  .sc-header-line {
    white-space: nowrap;
  }
  .sc-header-line > .sc-state,
  .sc-header-line > button {
    flex: none;
  }
  /* In a narrow panel the figures give way first (their tooltips keep them whole), then the ancestors' names. */
  .sc-header-line > .sc-usage,
  .sc-header-line > .sc-context {
    flex: 0 4 auto;
    min-width: 2em;
  }
  .sc-header-line > nav {
    overflow: hidden;
  }
  .sc-header-line > nav :focus-visible {
    outline-offset: -1px;
  }
  /* Open, the details push the transcript down (never cover it) and scroll themselves past a share of the panel. */
  .sc-header-details {
    max-height: 45vh;
    overflow-y: auto;
    padding-top: 2px;
  }
  .sc-breadcrumb {
    display: flex;
    align-items: center;
    min-width: 0;
    margin: 0;
    padding: 0;
    list-style: none;
  }
  /* The session's own name keeps more of its width than its ancestors'. */
  .sc-breadcrumb li {
    display: flex;
    flex: 0 4 auto;
    min-width: 2.5em;
  }
  .sc-breadcrumb li:last-child {
    flex-shrink: 1;
    min-width: 4em;
  }
  .sc-breadcrumb li > * {
    min-width: 0;
  }
  .sc-breadcrumb li + li::before {
    content: '›';
    flex: none;
    padding: 0 4px;
    color: var(--vscode-descriptionForeground);
  }
  .sc-breadcrumb [aria-current] {
    font-weight: 600;
  }
  .sc-state {
    display: inline-flex;
    align-items: center;
    gap: 3px;
    color: var(--vscode-descriptionForeground);
    white-space: nowrap;
  }
  /* Waiting for the user: the label stands out by weight; its icon carries the warning colour (presentedIcon). */
  .sc-state[data-activity='waiting'] {
    color: var(--vscode-foreground);
    font-weight: 600;
  }
  .sc-state-explanation {
    font-size: 0.92em;
  }
  subchats-outline {
    display: block;
    margin: 6px 0;
  }
  subchats-outline ul {
    list-style: none;
    margin: 0;
    padding-left: 14px;
  }
  subchats-outline > nav > ul {
    padding-left: 0;
  }

  /* Transcript entries */
  .sc-entry {
    display: block;
    padding: 4px 0;
  }
  lit-virtualizer {
    width: 100%;
  }
  lit-virtualizer > * {
    width: 100%;
    box-sizing: border-box;
  }
  subchats-message[role-kind='user'] .sc-bubble {
    padding: 6px 10px;
    border-radius: 6px;
    background: var(--vscode-input-background);
    border: 1px solid var(--vscode-input-border, var(--subchats-border));
  }
  .sc-role {
    font-size: 0.85em;
    font-weight: 600;
    color: var(--vscode-descriptionForeground);
    margin-bottom: 2px;
  }
  .sc-message-head {
    display: flex;
    align-items: center;
    gap: 6px;
  }
  /* A message's actions show where the pointer or the focus is, like VS Code's chat. */
  .sc-message-actions {
    display: inline-flex;
    opacity: 0;
  }
  .sc-entry:hover .sc-message-actions,
  .sc-message-actions:focus-within {
    opacity: 1;
  }
  subchats-markdown {
    display: block;
    overflow-wrap: anywhere;
    line-height: 1.45;
  }
  subchats-markdown > :first-child {
    margin-top: 0;
  }
  subchats-markdown > :last-child {
    margin-bottom: 0;
  }
  subchats-markdown > .sc-md-group {
    content-visibility: auto;
    contain-intrinsic-size: auto 300px;
  }
  .sc-md-group > :first-child {
    margin-top: 0;
  }
  .sc-md-group > :last-child {
    margin-bottom: 0;
  }
  .sc-md-group + .sc-md-group {
    margin-top: 1em;
  }
  subchats-markdown .sc-plain-text {
    white-space: pre-wrap;
  }
  subchats-markdown a {
    color: var(--vscode-textLink-foreground);
  }
  /* Inline code in VS Code's own pair of preformatted colours: its default webview style sets the text colour, so
     a background of another pair left white text on light grey in High Contrast Light. */
  subchats-markdown :not(pre) > code {
    padding: 1px 4px;
    border-radius: 3px;
    color: var(--vscode-textPreformat-foreground);
    background: var(--vscode-textPreformat-background);
  }
  subchats-markdown table {
    border-collapse: collapse;
  }
  /* A long table drawn in pieces: the pieces after the first repeat no header and sit flush under the last. */
  subchats-markdown table.sc-table-continued {
    margin-top: -1px;
  }
  subchats-markdown table.sc-table-continued > thead {
    display: none;
  }
  subchats-markdown th,
  subchats-markdown td {
    border: 1px solid var(--subchats-border);
    padding: 2px 6px;
  }
  .sc-code-block {
    position: relative;
  }
  .sc-code-actions {
    position: absolute;
    top: 4px;
    right: 4px;
    display: flex;
    gap: 2px;
    border-radius: 5px;
    background: var(--vscode-textCodeBlock-background);
    opacity: 0.7;
  }
  .sc-code-block:hover > .sc-code-actions,
  .sc-code-actions:focus-within {
    opacity: 1;
  }
  details.sc-thought > summary {
    cursor: pointer;
    color: var(--vscode-descriptionForeground);
  }
  details.sc-thought > subchats-markdown {
    padding-left: 14px;
    border-left: 2px solid var(--subchats-border);
    color: var(--vscode-descriptionForeground);
  }

  /* Tool calls */
  .sc-card {
    border: 1px solid var(--subchats-border);
    border-radius: var(--subchats-radius);
    background: var(--vscode-sideBar-background, transparent);
  }
  .sc-card > .sc-card-head {
    padding: 3px 6px;
  }
  .sc-card > .sc-card-body {
    padding: 4px 8px 6px;
    border-top: 1px solid var(--subchats-border);
  }
  .sc-locations {
    display: flex;
    flex-wrap: wrap;
    gap: 2px 10px;
    padding: 0 6px 3px 28px;
  }
  .sc-diff-summary .sc-added,
  .sc-diff-line[data-op='+'] {
    color: var(--vscode-gitDecoration-addedResourceForeground, #3fb950);
  }
  .sc-diff-summary .sc-removed,
  .sc-diff-line[data-op='-'] {
    color: var(--vscode-gitDecoration-deletedResourceForeground, #f85149);
  }
  .sc-diff-line[data-op='+'] {
    background: var(--vscode-diffEditor-insertedLineBackground, transparent);
  }
  .sc-diff-line[data-op='-'] {
    background: var(--vscode-diffEditor-removedLineBackground, transparent);
  }
  .sc-diff-line {
    display: block;
    white-space: pre;
  }
  .sc-terminal {
    background: var(--vscode-terminal-background, var(--vscode-textCodeBlock-background));
    color: var(--vscode-terminal-foreground, inherit);
    white-space: pre-wrap;
  }
  .sc-ansi-bold {
    font-weight: bold;
  }
  .sc-ansi-dim {
    opacity: 0.7;
  }
  .sc-ansi-italic {
    font-style: italic;
  }
  .sc-ansi-underline {
    text-decoration: underline;
  }

  /* Child cards */
  subchats-child-card {
    display: block;
  }
  subchats-child-card > .sc-card {
    border-left: 3px solid var(--vscode-charts-blue, var(--vscode-focusBorder));
  }
  subchats-child-card[data-state='requires_action'] > .sc-card {
    border-left-color: var(--vscode-charts-orange, var(--vscode-editorWarning-foreground));
  }
  .sc-child-meta {
    display: flex;
    flex-wrap: wrap;
    gap: 2px 12px;
    padding: 0 6px 3px 28px;
    color: var(--vscode-descriptionForeground);
    font-size: 0.92em;
  }
  .sc-settings {
    flex-wrap: wrap;
    gap: 4px 12px;
    margin: 2px 0;
  }
  .sc-setting {
    display: inline-flex;
    align-items: center;
    gap: 4px;
  }
  .sc-setting select {
    color: var(--vscode-dropdown-foreground);
    background: var(--vscode-dropdown-background);
    border: 1px solid var(--vscode-dropdown-border, transparent);
    font: inherit;
  }
  .sc-changes,
  .sc-timeline {
    margin: 2px 0;
  }
  .sc-timeline > summary {
    cursor: pointer;
  }
  .sc-timeline-rows {
    display: grid;
    grid-template-columns: minmax(60px, 160px) 1fr;
    gap: 2px 8px;
    padding: 2px 0 0 20px;
  }
  .sc-timeline-row {
    display: contents;
  }
  .sc-timeline-row .sc-link {
    text-align: start;
  }
  .sc-timeline-bar {
    width: 100%;
    height: 12px;
    align-self: center;
    background: var(--vscode-editorWidget-background, transparent);
  }
  .sc-timeline-axis {
    display: flex;
    justify-content: space-between;
    padding-left: calc(20px + min(160px, 30%) + 8px);
    font-size: 0.85em;
  }
  .sc-phase-working {
    fill: var(--vscode-charts-blue, #3794ff);
  }
  .sc-phase-waiting {
    fill: var(--vscode-charts-orange, #d18616);
  }
  .sc-phase-unknown {
    fill: var(--vscode-descriptionForeground, #888);
    opacity: 0.5;
  }
  .sc-phase-done {
    fill: var(--vscode-testing-iconPassed, #73c991);
  }
  .sc-phase-cancelled {
    fill: var(--vscode-disabledForeground, #999);
  }
  .sc-phase-failed {
    fill: var(--vscode-errorForeground, #f14c4c);
  }
  .sc-changes-toggle {
    gap: 6px;
    padding: 0;
    border: none;
    background: none;
    text-align: start;
    cursor: pointer;
  }
  .sc-card-changes .sc-changes {
    padding: 0 6px 3px 28px;
  }
  .sc-changes-list {
    margin: 2px 0 4px;
    padding: 0 0 0 20px;
    list-style: none;
  }
  .sc-changes-list li,
  .sc-change-row {
    gap: 6px;
  }
  .sc-changes-scroller {
    height: min(240px, 40vh);
    padding: 0 0 0 20px;
  }
  .sc-change-row {
    width: 100%;
  }
  .sc-changes-list .sc-link {
    text-align: start;
  }
  .sc-change-counts {
    color: var(--vscode-descriptionForeground);
    white-space: nowrap;
  }
  .sc-preview {
    margin: 0;
    padding: 2px 8px 6px 28px;
    list-style: none;
    color: var(--vscode-descriptionForeground);
  }
  .sc-nested {
    padding: 4px 0 4px 10px;
    border-top: 1px solid var(--subchats-border);
  }

  /* Plan, notices, permissions, session messages */
  .sc-plan ol {
    margin: 4px 0;
    padding-left: 4px;
    list-style: none;
  }
  .sc-plan li[data-status='completed'] .sc-plan-text {
    text-decoration: line-through;
    color: var(--vscode-descriptionForeground);
  }
  .sc-notice {
    padding: 4px 8px;
    border-left: 3px solid var(--vscode-notificationsInfoIcon-foreground, var(--vscode-focusBorder));
  }
  .sc-notice[data-severity='warning'] {
    border-left-color: var(--vscode-notificationsWarningIcon-foreground);
  }
  .sc-notice[data-severity='error'] {
    border-left-color: var(--vscode-notificationsErrorIcon-foreground);
  }
  .sc-permission {
    padding: 6px 8px;
    border: 1px solid var(--vscode-notificationsWarningIcon-foreground, var(--vscode-focusBorder));
    border-radius: var(--subchats-radius);
  }
  /* The command an allow covers, in full: line breaks kept, long lines wrapped. */
  .sc-permission-command code {
    white-space: pre-wrap;
    word-break: break-all;
  }
  .sc-permission .sc-options {
    display: flex;
    flex-wrap: wrap;
    gap: 6px;
    margin-top: 6px;
  }
  .sc-session-message {
    padding: 4px 8px;
    border-left: 3px dashed var(--vscode-charts-purple, var(--vscode-focusBorder));
  }

  /* Prompt box: the panel's bottom row */
  subchats-prompt-box {
    display: block;
    padding-top: 8px;
    padding-bottom: 10px;
  }
  .sc-prompt-actions {
    margin-top: 4px;
  }
  .sc-prompt-actions > button {
    flex: none;
    white-space: nowrap;
  }
  .sc-prompt-actions > subchats-session-settings {
    flex: none;
    max-width: 60%;
  }
  subchats-prompt-box textarea {
    width: 100%;
    box-sizing: border-box;
    min-height: 48px;
    resize: vertical;
    padding: 4px 6px;
    font: inherit;
    color: var(--vscode-input-foreground);
    background: var(--vscode-input-background);
    border: 1px solid var(--vscode-input-border, var(--subchats-border));
    border-radius: 2px;
  }
  subchats-prompt-box textarea:disabled {
    opacity: 0.6;
  }
  subchats-prompt-box form {
    position: relative;
  }
  /* Upward over the transcript, as far as the room above the box goes (--sc-completion-room, measured). */
  .sc-completion {
    position: absolute;
    bottom: 100%;
    left: 0;
    right: 0;
    max-height: min(var(--sc-completion-room, 240px), 30em);
    box-sizing: border-box;
    overflow-y: auto;
    margin: 0 0 2px;
    padding: 2px 0;
    list-style: none;
    background: var(--vscode-editorSuggestWidget-background, var(--vscode-input-background));
    border: 1px solid var(--vscode-editorSuggestWidget-border, var(--subchats-border));
    z-index: 2;
  }
  div.sc-completion {
    padding: 4px 8px;
  }
  .sc-completion-item {
    display: flex;
    gap: 8px;
    align-items: baseline;
    padding: 2px 8px;
    cursor: pointer;
    white-space: nowrap;
    overflow: hidden;
  }
  .sc-completion-item[aria-selected='true'] {
    color: var(--vscode-editorSuggestWidget-selectedForeground, var(--vscode-foreground));
    background: var(--vscode-editorSuggestWidget-selectedBackground, var(--vscode-list-activeSelectionBackground, rgba(0, 120, 212, 0.4)));
    outline: 1px solid var(--vscode-list-focusOutline, transparent);
    outline-offset: -1px;
  }
  /* On the selection's background the muted colour is not made to read: the row's own colour is. */
  .sc-completion-item[aria-selected='true'] .sc-muted {
    color: inherit;
  }
  .sc-completion-name {
    font-family: var(--vscode-editor-font-family);
  }
  .sc-completion-description {
    overflow: hidden;
    text-overflow: ellipsis;
  }
  .sc-chips,
  .sc-queue {
    display: flex;
    flex-wrap: wrap;
    gap: 4px;
    margin: 0 0 4px;
    padding: 0;
    list-style: none;
  }
  .sc-queue {
    flex-direction: column;
  }
  .sc-editing {
    display: flex;
    align-items: center;
    gap: 4px;
    margin: 0 0 4px;
  }
  .sc-chip,
  .sc-queued {
    display: inline-flex;
    align-items: center;
    gap: 4px;
    padding: 0 2px 0 6px;
    border: 1px solid var(--subchats-border);
    border-radius: 3px;
    background: var(--vscode-badge-background, var(--vscode-input-background));
    color: var(--vscode-badge-foreground, var(--vscode-foreground));
  }
  .sc-queued {
    display: flex;
    background: transparent;
    color: inherit;
  }
  .sc-earlier {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 4px;
    padding-bottom: 4px;
    margin-bottom: 4px;
    border-bottom: 1px dashed var(--vscode-panel-border, currentColor);
    font-size: 0.9em;
  }
  .sc-delivery {
    display: flex;
    align-items: center;
    gap: 4px;
    margin-top: 2px;
    font-size: 0.9em;
  }
  .sc-delivery[data-delivery='failed'] > .codicon,
  .sc-delivery[data-delivery='not-delivered'] > .codicon,
  .sc-delivery[data-delivery='added-by-agent'] > .codicon,
  .sc-delivery[data-delivery='agent-echo'] > .codicon {
    color: var(--vscode-editorWarning-foreground, inherit);
  }
  /* The agent's account of a message: its own lines, long words wrapped. */
  .sc-delivery[data-delivery='agent-echo'] {
    align-items: flex-start;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
  /* A path (subchats-path): its button takes the place of the element in the row (ellipsis, growing). */
  subchats-path {
    display: contents;
  }
  .sc-path {
    overflow-wrap: anywhere;
    text-align: start;
  }
  .sc-chip .sc-path {
    color: inherit;
  }
  .sc-chip-refused {
    border-color: var(--vscode-inputValidation-warningBorder, var(--vscode-notificationsWarningIcon-foreground));
  }
  /* Data colours too faint for the theme get the nearest readable one (webview/lib/readableText.ts). */
  [data-readable] {
    color: var(--sc-readable) !important;
  }
  /*
   * Forced colours (Windows High Contrast and the like) replace every colour with the system palette: the
   * selected completion and the bounds of code blocks, drawn with background colours, would vanish.
   */
  @media (forced-colors: active) {
    .sc-completion-item[aria-selected='true'] {
      forced-color-adjust: none;
      color: HighlightText;
      background: Highlight;
      outline: 2px solid CanvasText;
      outline-offset: -2px;
    }
    .sc-completion-item[aria-selected='true'] .sc-muted {
      color: HighlightText;
    }
    pre,
    subchats-markdown :not(pre) > code {
      border: 1px solid CanvasText;
    }
  }
  .sc-visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
  }
`;

/** Highlighted code: a class per kind of token (see lib/codeTokenStyles). */
const codeTokenSheet = codeTokenRules();

export function adoptChatStyles(doc: Document): void {
  for (const sheet of [chatStyles.styleSheet, codeTokenSheet.styleSheet]) {
    if (sheet && !doc.adoptedStyleSheets.includes(sheet)) doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, sheet];
  }
}
