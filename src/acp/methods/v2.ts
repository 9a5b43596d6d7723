// What ACP v2 (draft) changes against v1.ts, method by method: renamed auth methods, a new initialize shape,
// a prompt that is only acknowledged (the idle state_update ends the turn), a resume that replays history,
// config values named by type, and per-item cancels. Everything not here is sent and served as in v1.
// v2 removed session/load, session/set_mode and the fs/terminal client methods; versionAdapter.ts refuses them.
import type {
  CancelTerminalRequest,
  CancelTerminalResponse,
  CancelToolCallRequest,
  CancelToolCallResponse,
  InitializeRequest,
  InitializeResponse,
  LoginAuthRequest,
  LoginAuthResponse,
  LogoutAuthRequest,
  LogoutAuthResponse,
  ResumeSessionRequest,
  ResumeSessionResponse,
  SetSessionConfigOptionRequest,
  SetSessionConfigOptionResponse,
} from '@agentclientprotocol/sdk/experimental/v2/unstable';
import { RequestType } from 'vscode-jsonrpc/node';
import { AgentMethod } from '../../protocol/acpMethods';
import type { PromptParams } from './v1';

/** v2 `session/prompt` answers once the user message is in the conversation, naming it. */
export interface PromptAcknowledgement {
  readonly messageId?: unknown;
}

export const initialize = new RequestType<InitializeRequest, InitializeResponse, void>(AgentMethod.initialize);
export const authLogin = new RequestType<LoginAuthRequest, LoginAuthResponse, void>(AgentMethod.authLogin);
export const authLogout = new RequestType<LogoutAuthRequest, LogoutAuthResponse, void>(AgentMethod.authLogout);
export const prompt = new RequestType<PromptParams, PromptAcknowledgement, void>(AgentMethod.sessionPrompt);
export const setConfigOption = new RequestType<SetSessionConfigOptionRequest, SetSessionConfigOptionResponse, void>(AgentMethod.sessionSetConfigOption);
export const cancelToolCall = new RequestType<CancelToolCallRequest, CancelToolCallResponse, void>(AgentMethod.toolCallCancel);
export const cancelTerminal = new RequestType<CancelTerminalRequest, CancelTerminalResponse, void>(AgentMethod.terminalCancel);
