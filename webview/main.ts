// Bootstraps the chat webview.
export {};
