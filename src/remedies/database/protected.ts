/**
 * Databases the drop remedy refuses to touch: the platform's own and PostgreSQL's system databases.
 * The platform's come from its install manifests: the migration jobs run against `orchestrator`
 * (main service), `casbin` (authorisation), `git_sensor` and `lens`; its chart names `clairv4` (image
 * scanning) as the database of an external install. Dropping any of them breaks the platform.
 */
export const protectedDatabases: readonly string[] = ['orchestrator', 'casbin', 'git_sensor', 'lens', 'clairv4', 'postgres', 'template0', 'template1'];

/** Why the database must not be dropped, or undefined when it may be. */
export function refusalFor(database: string, connectedTo: string): string | undefined {
  if (protectedDatabases.includes(database)) {
    return `Refusing to drop "${database}": it is one of the platform's own or PostgreSQL's system databases (${protectedDatabases.join(', ')}). Dropping it would break the platform.`;
  }
  if (database === connectedTo) return `Refusing to drop "${database}": it is the database the worker's own connection uses.`;
  return undefined;
}
