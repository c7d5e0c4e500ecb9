/**
 * Reads a Server-Sent Events body (the feed's message stream): calls back with each event's data
 * as it arrives and resolves when the stream ends, or when the callback answers false (the reader
 * then cancels the stream). Comment lines (keep-alives) are skipped.
 */
export async function readServerSentEvents(
  body: ReadableStream<Uint8Array>,
  onData: (data: string) => void | boolean | Promise<void | boolean>,
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n/g, '\n');
    const frames = buffer.split('\n\n');
    buffer = frames.pop() ?? '';
    for (const frame of frames) {
      const data = frame
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice('data:'.length).replace(/^ /, ''));
      if (data.length > 0 && (await onData(data.join('\n'))) === false) {
        await reader.cancel();
        return;
      }
    }
  }
}
