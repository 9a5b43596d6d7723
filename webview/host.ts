// The webview's only connection to the extension host. Components never post directly; they call actions.
import { parseHostMessage } from '../src/protocol/messageGuards';
import type { HostToWebviewMessage, WebviewToHostMessage } from '../src/protocol/webviewMessages';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

export interface HostChannel {
  post(message: WebviewToHostMessage): void;
  onMessage(listener: (message: HostToWebviewMessage) => void): void;
  getState(): unknown;
  setState(state: unknown): void;
}

/** Wraps `acquireVsCodeApi()` (which may be called once per page) and the window `message` event. */
export function connectToHost(): HostChannel {
  const api = acquireVsCodeApi();
  return {
    post: (message) => api.postMessage(message),
    onMessage: (listener) =>
      window.addEventListener('message', (event: MessageEvent<unknown>) => {
        const message = parseHostMessage(event.data);
        if (message) listener(message);
      }),
    getState: () => api.getState(),
    setState: (state) => api.setState(state),
  };
}
