// ACP method names, each spelled once for both sides of the layering: src/acp sends and serves them, the
// store reads them off the wire. Plain strings without imports, since src/protocol depends on nothing; the
// typed requests (params and results per ACP version) are declared on top of these in src/acp/methods/.
// Named as the ACP SDK groups them: `AgentMethod` is what the agent implements (the client calls it),
// `ClientMethod` what the client implements (the agent calls it).

/** Requests and notifications the client sends to the agent. */
export const AgentMethod = {
  initialize: 'initialize',
  /** v1; v2 renamed it `auth/login`. */
  authenticate: 'authenticate',
  /** v1; v2 renamed it `auth/logout`. */
  logout: 'logout',
  authLogin: 'auth/login',
  authLogout: 'auth/logout',
  sessionNew: 'session/new',
  /** v1 only; v2 resumes with a replay instead. */
  sessionLoad: 'session/load',
  sessionResume: 'session/resume',
  sessionList: 'session/list',
  sessionClose: 'session/close',
  sessionPrompt: 'session/prompt',
  /** A notification. */
  sessionCancel: 'session/cancel',
  /** v1 only; v2 has modes as a config option. */
  sessionSetMode: 'session/set_mode',
  sessionSetConfigOption: 'session/set_config_option',
  /** claude-agent-acp's and codex-acp's extension: a message joins the running turn. */
  sessionSteering: '_session/steering',
  /** v2 only. */
  toolCallCancel: 'tool_call/cancel',
  /** v2 only. */
  terminalCancel: 'terminal/cancel',
} as const;

/** Requests and notifications the agent sends to the client. */
export const ClientMethod = {
  /** A notification. */
  sessionUpdate: 'session/update',
  sessionRequestPermission: 'session/request_permission',
  fsReadTextFile: 'fs/read_text_file',
  fsWriteTextFile: 'fs/write_text_file',
  terminalCreate: 'terminal/create',
  terminalOutput: 'terminal/output',
  terminalWaitForExit: 'terminal/wait_for_exit',
  terminalKill: 'terminal/kill',
  terminalRelease: 'terminal/release',
  elicitationCreate: 'elicitation/create',
  /** A notification. */
  elicitationComplete: 'elicitation/complete',
} as const;

/** Either side withdraws one of its own requests (a notification). */
export const CANCEL_REQUEST_METHOD = '$/cancel_request';

export type ClientMethodName = (typeof ClientMethod)[keyof typeof ClientMethod];

/** Client methods ACP v2 removed (v2 agents own their files and terminals). */
export const V1_ONLY_CLIENT_METHODS: readonly ClientMethodName[] = [
  ClientMethod.fsReadTextFile,
  ClientMethod.fsWriteTextFile,
  ClientMethod.terminalCreate,
  ClientMethod.terminalOutput,
  ClientMethod.terminalWaitForExit,
  ClientMethod.terminalKill,
  ClientMethod.terminalRelease,
];
