import type { FaultEntry } from '../fault-model.js';

/**
 * Entry 16: a database cannot be dropped because another session is open on it (PostgreSQL's 55006
 * "database … is being accessed by other users"). The broken state is a real database with a real
 * session on the platform's PostgreSQL; fixed once that session has been ended (the remedy ends it,
 * then drops the database). Its name is what `break()` resolves to be asked for in the fix.
 */
export const databaseDropBlocked: FaultEntry = {
  entryId: 'database-drop-blocked',
  guideEntry: 16,
  async breakOutside({ database }) {
    if (!database) throw new Error('cannot break database-drop-blocked: this simulated cluster has no database (start it with the `database` option)');
    return database.blockDrop();
  },
  present: ({ database }, name) => database?.blocked(name) === true,
};
