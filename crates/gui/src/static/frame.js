// Timing around the browser's frames.

// Runs fn in the first task after the current frame's style, layout and paint: a message
// posted from an animation frame callback is handled after the frame's rendering steps, so
// fn may read the layout without making the browser lay the page out a second time.
export function afterPaint(fn) {
  const ch = new MessageChannel();
  ch.port1.onmessage = () => { ch.port1.close(); fn(); };
  ch.port2.postMessage(null);
}
