// Runs a callback once the next frame is painted: components render in microtasks, so they are done by the
// animation frame, and a message-channel task posted from it runs after that frame's paint.

export function afterNextPaint(callback: () => void): void {
  requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => callback();
    channel.port2.postMessage(undefined);
  });
}
