/**
 * Polls until `isDone` holds or `boundMs` passes, and answers the last value read. For changes that
 * reach a process by notification: the bound is far below the caches' 30 s safety-net age, so only
 * the notification can make a check pass in time.
 */
export async function eventually<T>(read: () => Promise<T>, isDone: (value: T) => boolean, boundMs = 5_000): Promise<T> {
  const deadline = Date.now() + boundMs;
  let value = await read();
  while (!isDone(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    value = await read();
  }
  return value;
}
