/** A statement as a repository writes it out: a constant of the repository, and its values. */
export interface Statement {
  readonly sql: string;
  readonly parameters: readonly unknown[];
  /**
   * Made to one row as it was read (`… WHERE id = ? AND version = ?`): when it changes no row,
   * another change came first, and the transaction must not commit (IdempotencyRepository.changeOnce).
   */
  readonly toRowAsRead?: true;
}
