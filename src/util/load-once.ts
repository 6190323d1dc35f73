// A package loaded on first use (octokit, isomorphic-git, @ast-grep/napi, jscodeshift: start-up never
// pays for what a run does not need), shared by every later caller. A load that failed is not kept:
// the next caller tries again, so one failure (too many open files, a package installed meanwhile)
// is not repeated for the rest of a long-running process.

/** `load`, run at the first call and shared by the calls after it until it fails; a failure is given to its callers and forgotten. */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((e: unknown) => {
      loading = undefined;
      throw e;
    }));
}
