/** True when every promise settled within `ms` (a failure counts as settled). */
export async function settledWithin(work: Promise<unknown>[], ms: number): Promise<boolean> {
  if (work.length === 0) return true;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([Promise.allSettled(work).then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
