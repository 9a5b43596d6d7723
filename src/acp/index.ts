// Public surface of the ACP client layer (no 'vscode' imports anywhere below src/acp/).
export { AgentConnection, DEFAULT_INITIALIZE_TIMEOUT_MS } from './agentConnection';
export type { AgentConnectionOptions, AvailableSubagentsChange, SessionSetupOptions } from './agentConnection';
export { AgentProcess } from './agentProcess';
export type { AgentConfig } from './agentProcess';
export { buildClientCapabilities, PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from './capabilities';
export type { ClientHost } from './clientHost';
export { delegationSupport, hasSubagentCatalog, parseSubagentCatalog, validateDelegation } from './delegation';
export type { DelegationPolicy, DelegationSupport, PromptDelegation, SubagentInfo, SubagentRunMode } from './delegation';
export * from './errors';
export { parseWireLine } from './ndjson';
export type { WireDirection, WireTap } from './ndjson';
export { TerminalManager, DEFAULT_OUTPUT_BYTE_LIMIT } from './terminals';
export type { TerminalExitEvent, TerminalExitStatus, TerminalInfo, TerminalOutputEvent, TerminalOutputSnapshot } from './terminals';
export { sliceLines } from './textSlice';
export { FileTranscript, formatTranscriptLine, MemoryTranscript } from './transcript';
export type { TranscriptRecorder } from './transcript';
export { isInsideOrEqual, resolveWorkspacePath, WorkspacePathError } from './workspacePaths';
