import { AppError } from '../errors';
import type { Store, StoreTx } from '../ports/store';

/**
 * One open transaction seen as a `Store`: code written against `Store` (the front ends'
 * `StoreChatDirectory`, `ensureDirectSpace`) runs inside it, so what it writes commits or rolls back with
 * the transaction's own work. Only the system context is offered (the transaction's own).
 */
export const transactionStore = (tx: StoreTx): Store => ({
  transaction: (work) => work(tx),
  inWorkspace: () =>
    Promise.reject(
      new AppError('A workspace transaction cannot be opened inside the routing one.', 'nested_transaction'),
    ),
  addToInbox: (entry) => tx.inbox.add(entry),
  warm: async () => {},
  close: async () => {},
});
