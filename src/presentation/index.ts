// One presentation of sessions and tool calls for both sides: the session tree (src/views) and the chat
// webview (webview/). Pure functions; imports only src/protocol.
export { ownEntry, themeColorVar } from './lookup';
export { AGENT_STARTED_QUIET_MS, BACKGROUND_QUIET_MS, isWorking, presentState, stateLabel, type Activity, type PresentableState, type PresentedState, type StateExtras } from './sessionState';
export { runsInBackground, withBackgroundWork } from './backgroundWork';
export { clockTime, elapsedMs, formatDuration, spentTimes, spentTimesSinceText, spentTimesText } from './time';
export { grantsCancel, terminalGrantsCancel, presentToolStatus, stoppedWithTurn, toolKindIcon, toolProgress } from './toolCall';
export { stateExplanation } from './explanation';
export { planSummary } from './plan';
export { preOrder } from './treeOrder';
export { plainText, visibleBidi } from './plainText';
export { historyCut } from './historyCut';
export { LONG_QUIET_MS, longQuietNotice } from './quietNotice';
export { attachmentLabel, attachmentRefusal, embedsText } from './promptContent';
export { changeCounts, changePath, filesChangedLabel } from './changes';
export { isAdvertisedChange, sessionSettings } from './sessionSettings';
export { childTimeline } from './timeline';
export { patchLineKind } from './gitPatch';
export { editingNotice, isResendable, presentDeliveries } from './delivery';
export { commandText, isPlainWord } from './command';
export { permissionAnswer } from './permission';
export { turnEndAnnouncement } from './turnEnd';
export { TerminalOutputFilter } from './terminalOutput';
export { contextText, costText, subtreeUsage, subtreeUsageLines, usageText, usageWithChildren, type SpentBelow, type SubtreeUsage, type UsageNode } from './usage';
export { codeBlockFile } from './codeBlockFile';
export { CODE_TOKEN_KINDS, codeTokenCss, codeTokenKind, type CodeTokenKind } from './codeTokens';
export { displayPath, fileReference, isLocalFile, workspaceFile, workspacePathsInText } from './displayPath';
export { L10N_ELEMENT_ID, parseL10nBundle, t, useL10nBundle } from './l10n';
export { protocolMismatchReason } from './protocolMismatch';
