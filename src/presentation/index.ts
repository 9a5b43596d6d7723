// One presentation of sessions and tool calls for both sides: the session tree (src/views) and the chat
// webview (webview/). Pure functions; imports only src/protocol.
export { ownEntry, shorten, themeColorVar } from './lookup';
export { AGENT_STARTED_QUIET_MS, BACKGROUND_QUIET_MS, isWorking, oneLine, presentState, stateLabel, words, type Activity, type PresentableState, type PresentedState, type StateExtras } from './sessionState';
export { backgroundRunning, withBackgroundWork, type BackgroundFacts } from './backgroundWork';
export { clockTime, elapsedMs, formatDuration, spentTimes, spentTimesText, type SpentTimes, type TimedSession } from './time';
export { grantsCancel, terminalGrantsCancel, isToolCallOpen, presentToolStatus, stoppedWithTurn, toolKindIcon, toolProgress, type PresentedToolStatus } from './toolCall';
export { stateExplanation, type ExplanationOptions } from './explanation';
export { planSummary } from './plan';
export { preOrder } from './treeOrder';
export { plainText, visibleBidi } from './plainText';
export { historyCut } from './historyCut';
export { LONG_QUIET_MS, longQuietNotice, type QuietFacts } from './quietNotice';
export { attachmentLabel, attachmentRefusal, embedsText } from './promptContent';
export { changeCounts, changePath, filesChangedLabel } from './changes';
export { isAdvertisedChange, sessionSettings } from './sessionSettings';
export { childTimeline, type TimelineChild } from './timeline';
export { patchLineKind, type PatchLineKind } from './gitPatch';
export { presentDeliveries, presentRelay, presentSteer, type DeliveryKind, type PresentedDelivery } from './delivery';
export { commandText, isPlainWord } from './command';
export { permissionAnswer } from './permission';
export { TerminalOutputFilter } from './terminalOutput';
export { contextText, costText, subtreeUsage, subtreeUsageLines, usageText, usageTree, type SubtreeUsage, type UsageNode } from './usage';
