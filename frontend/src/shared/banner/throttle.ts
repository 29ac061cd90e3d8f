/** A throttled function: call it as often as you like; cancel drops a pending trailing call. */
export interface Throttled<A extends unknown[]> {
  (...args: A): void;
  cancel(): void;
}

/**
 * Returns fn limited to one call per wait ms: the first call runs at once, later calls
 * inside the window collapse into one trailing call with the latest arguments.
 */
export function throttle<A extends unknown[]>(
  fn: (...args: A) => void,
  wait: number,
): Throttled<A> {
  let last = Number.NEGATIVE_INFINITY;
  let pending: A | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const fire = (args: A) => {
    last = Date.now();
    fn(...args);
  };

  const throttled = (...args: A) => {
    const elapsed = Date.now() - last;
    if (elapsed >= wait && timer === undefined) {
      fire(args);
      return;
    }
    pending = args;
    if (timer !== undefined) return;
    timer = setTimeout(
      () => {
        timer = undefined;
        if (pending) {
          const next = pending;
          pending = null;
          fire(next);
        }
      },
      Math.max(0, wait - elapsed),
    );
  };
  throttled.cancel = () => {
    clearTimeout(timer);
    timer = undefined;
    pending = null;
  };
  return throttled;
}
