/**
 * P19: a verified GitHub webhook delivery, as core code that reacts to GitHub (routines'
 * `github` triggers, W1–W5) receives it: already checked against `X-Hub-Signature-256`.
 */
export interface GitHubDelivery {
  /** `X-GitHub-Delivery`: the same id on a redelivery (P6: key durable work by it). */
  id: string;
  /** `X-GitHub-Event`: `issue_comment`, `check_suite`, `push`… */
  name: string;
  /** The payload's `action`, when it has one. */
  action: string | null;
  /** `owner/name`, lower-cased, when the event is about a repository. */
  repo: string | null;
  payload: unknown;
  receivedAt: Date;
}

/**
 * P19: how core code subscribes to GitHub's webhooks (the GitHub front end's receiver,
 * `POST /github/webhooks`). Each verified delivery reaches every listener once per process,
 * after it was acknowledged to GitHub, whatever its event (comments are also routed as
 * messages); a listener's failure is logged and touches nothing else. A redelivery (GitHub's
 * "Redeliver", another process) can come again with the same `id`.
 */
export interface GitHubEventSource {
  /** Returns the way to unsubscribe. */
  subscribe(listener: (delivery: GitHubDelivery) => void | Promise<void>): () => void;
}
