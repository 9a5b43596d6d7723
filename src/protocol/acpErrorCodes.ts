// The JSON-RPC error codes ACP uses beyond JSON-RPC's own (-32700 .. -32603, which src/acp and src/host take
// from vscode-jsonrpc's `ErrorCodes`). Dependency-free so that any layer, the store included, can name them.

export const AcpErrorCodes = {
  /** The agent needs the user to sign in (with one of its `authMethods`) first. */
  AuthRequired: -32000,
  /** A session, file or terminal that does not exist. */
  ResourceNotFound: -32002,
  /** v2: the agent does not speak the offered `protocolVersion` (data `{requested, supported}`). */
  UnsupportedProtocolVersion: -32022,
  /** The request was withdrawn with `$/cancel_request` (LSP's code; vscode-jsonrpc does not name it). */
  RequestCancelled: -32800,
} as const;
