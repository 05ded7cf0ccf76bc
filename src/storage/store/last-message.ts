/** What the store's transaction wrapper asks of a lazy transaction: its `lastMessage()`. */
export interface OwedTransaction {
  lastMessage(): LastMessage;
}

/** T2, T3: the message that carried the COMMIT (`commitWithNextMessage`), if any. */
export interface LastMessage {
  /** It went, or was to go: TypeORM's COMMIT is its answer. */
  sent: boolean;
  /** It was written to an open connection: it may have been stored. */
  mayHaveCommitted: boolean;
  /** Its answer came back: stored. */
  committed: boolean;
}

/** T3: a statement issued once the message carrying its transaction's COMMIT was sent. */
export const afterLastMessage = (): Error =>
  new Error('A statement was issued after the message that carried its transaction’s COMMIT.');
