// For tests of refusals: the error a call throws, so that its message and fields can be checked.

/** The error `fn` throws when it is an `ErrorClass`; anything else thrown is rethrown, and returning is an error. */
export function thrown<E extends Error>(ErrorClass: abstract new (...args: never[]) => E, fn: () => unknown): E {
  try {
    fn();
  } catch (e) {
    if (e instanceof ErrorClass) return e;
    throw e;
  }
  throw new Error(`expected a ${ErrorClass.name}, but nothing was thrown`);
}
