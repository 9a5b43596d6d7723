// ACP v1, method by method: each request and notification this client sends or serves, declared once as a
// vscode-jsonrpc message type with its params and result (mirroring the agent the way an LSP client's
// `lsp_ext.ts` mirrors its server). Shapes are the ACP SDK's (`/unstable`, for subagents), widened only where
// this client sends more than the schema knows (prompt delegation, the steering extension).
// v2.ts declares what ACP v2 changes; versionAdapter.ts picks between them.
import type {
  AuthenticateRequest,
  AuthenticateResponse,
  CancelNotification,
  CancelRequestNotification,
  CloseSessionRequest,
  CloseSessionResponse,
  CompleteElicitationNotification,
  ContentBlock,
  CreateElicitationRequest,
  CreateElicitationResponse,
  CreateTerminalRequest,
  CreateTerminalResponse,
  InitializeRequest,
  InitializeResponse,
  KillTerminalRequest,
  KillTerminalResponse,
  ListSessionsRequest,
  ListSessionsResponse,
  LoadSessionRequest,
  LoadSessionResponse,
  LogoutRequest,
  LogoutResponse,
  NewSessionRequest,
  NewSessionResponse,
  PromptRequest,
  PromptResponse,
  ReadTextFileRequest,
  ReadTextFileResponse,
  ReleaseTerminalRequest,
  ReleaseTerminalResponse,
  RequestPermissionRequest,
  RequestPermissionResponse,
  ResumeSessionRequest,
  ResumeSessionResponse,
  SessionNotification,
  SetSessionConfigOptionRequest,
  SetSessionConfigOptionResponse,
  SetSessionModeRequest,
  SetSessionModeResponse,
  TerminalOutputRequest,
  TerminalOutputResponse,
  WaitForTerminalExitRequest,
  WaitForTerminalExitResponse,
  WriteTextFileRequest,
  WriteTextFileResponse,
} from '@agentclientprotocol/sdk/unstable';
import { NotificationType, RequestType } from 'vscode-jsonrpc/node';
import { AgentMethod, CANCEL_REQUEST_METHOD, ClientMethod } from '../../protocol/acpMethods';
import type { PromptDelegation } from '../delegation';

/** `session/prompt` as this client sends it: the caller's blocks as given, and RFD-855's delegation hint. */
export type PromptParams = Omit<PromptRequest, 'prompt'> & { prompt: readonly ContentBlock[]; delegation?: PromptDelegation };

/** `_session/steering` (claude-agent-acp, codex-acp): the message joins the running turn. */
export interface SteerParams {
  readonly sessionId: string;
  readonly prompt: readonly ContentBlock[];
  /** `promptRequired`: an agent whose turn already ended says so instead of starting one of its own. */
  readonly _meta: { readonly steering: { readonly idleBehavior: 'promptRequired' } };
}

/** `{ outcome: 'injected' | 'promptRequired' | 'startedNewTurn' }`; read leniently, agents may say more. */
export type SteerResult = unknown;

// ---- client -> agent ----------------------------------------------------------------------------

export const initialize = new RequestType<InitializeRequest, InitializeResponse, void>(AgentMethod.initialize);
export const authenticate = new RequestType<AuthenticateRequest, AuthenticateResponse, void>(AgentMethod.authenticate);
export const logout = new RequestType<LogoutRequest, LogoutResponse, void>(AgentMethod.logout);
export const newSession = new RequestType<NewSessionRequest, NewSessionResponse, void>(AgentMethod.sessionNew);
export const loadSession = new RequestType<LoadSessionRequest, LoadSessionResponse, void>(AgentMethod.sessionLoad);
export const resumeSession = new RequestType<ResumeSessionRequest, ResumeSessionResponse, void>(AgentMethod.sessionResume);
export const listSessions = new RequestType<ListSessionsRequest, ListSessionsResponse, void>(AgentMethod.sessionList);
export const closeSession = new RequestType<CloseSessionRequest, CloseSessionResponse, void>(AgentMethod.sessionClose);
/** v1: the response ends the turn, with its stop reason. */
export const prompt = new RequestType<PromptParams, PromptResponse, void>(AgentMethod.sessionPrompt);
export const steer = new RequestType<SteerParams, SteerResult, void>(AgentMethod.sessionSteering);
export const cancel = new NotificationType<CancelNotification>(AgentMethod.sessionCancel);
export const setMode = new RequestType<SetSessionModeRequest, SetSessionModeResponse, void>(AgentMethod.sessionSetMode);
export const setConfigOption = new RequestType<SetSessionConfigOptionRequest, SetSessionConfigOptionResponse, void>(AgentMethod.sessionSetConfigOption);

// ---- agent -> client ----------------------------------------------------------------------------

export const sessionUpdate = new NotificationType<SessionNotification>(ClientMethod.sessionUpdate);
export const requestPermission = new RequestType<RequestPermissionRequest, RequestPermissionResponse, void>(ClientMethod.sessionRequestPermission);
export const readTextFile = new RequestType<ReadTextFileRequest, ReadTextFileResponse, void>(ClientMethod.fsReadTextFile);
export const writeTextFile = new RequestType<WriteTextFileRequest, WriteTextFileResponse, void>(ClientMethod.fsWriteTextFile);
export const createTerminal = new RequestType<CreateTerminalRequest, CreateTerminalResponse, void>(ClientMethod.terminalCreate);
export const terminalOutput = new RequestType<TerminalOutputRequest, TerminalOutputResponse, void>(ClientMethod.terminalOutput);
export const waitForTerminalExit = new RequestType<WaitForTerminalExitRequest, WaitForTerminalExitResponse, void>(ClientMethod.terminalWaitForExit);
export const killTerminal = new RequestType<KillTerminalRequest, KillTerminalResponse, void>(ClientMethod.terminalKill);
export const releaseTerminal = new RequestType<ReleaseTerminalRequest, ReleaseTerminalResponse, void>(ClientMethod.terminalRelease);
export const createElicitation = new RequestType<CreateElicitationRequest, CreateElicitationResponse, void>(ClientMethod.elicitationCreate);
export const completeElicitation = new NotificationType<CompleteElicitationNotification>(ClientMethod.elicitationComplete);

// ---- either direction ---------------------------------------------------------------------------

export const cancelRequest = new NotificationType<CancelRequestNotification>(CANCEL_REQUEST_METHOD);
