/** A queued turn: the run is stored first; the job only wakes a worker up. */
export interface RunJob {
  runId: string;
  /**
   * T3: the run's lane and fair-share owner, when the enqueuer knows them (routing does): the
   * worker claims the lane without reading the run first. Without it the worker reads them.
   */
  lane?: RunLane;
  /**
   * T3: routing stored the run `running` (claimed) at this time (ms since the epoch), with a
   * slot held for it in this process (`LocalLanes.holdForRouting`): its lane starts here
   * without a claim; a hand-back is conditioned on the run being untouched since.
   */
  claimedAt?: number;
}

/** T3: the (agent, conversation) lane of a run, and the workspace and space it is shared in. */
export interface RunLane {
  workspaceId: string;
  agentId: string;
  conversationId: string;
  spaceId: string;
}
