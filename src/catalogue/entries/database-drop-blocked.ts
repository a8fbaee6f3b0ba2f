import type { CatalogueEntry } from '../model.js';

/** Guide 7.16: a database with open sessions cannot be dropped. */
export const databaseDropBlocked: CatalogueEntry = {
  id: 'database-drop-blocked',
  ref: '7.16',
  appliesTo: 'any-product',
  title: "Database cannot be dropped: 'is being accessed by other users'",
  symptom: "Dropping a database fails with 'is being accessed by other users'.",
  cause: 'Sessions are still open on the database.',
  signatures: {
    errors: [
      'is being accessed by other users',
      // The DETAIL line PostgreSQL adds to the refusal (dbcommands.c, errdetail_busy_db).
      'other session using the database',
      'other sessions using the database',
      // The refusal as PostgreSQL's translated servers write it (postgres-15 message catalogues: de, es, fr,
      // it, ja, ko, ru, sv, uk, zh_CN, zh_TW), the part after the database's name.
      'wird von anderen Benutzern zugegriffen',
      'está siendo utilizada por otros usuarios',
      "est en cours d'utilisation par d'autres utilisateurs",
      'è attualmente utilizzato da altri utenti',
      'は他のユーザーからアクセスされています',
      '데이터베이스를 다른 사용자가 액세스하기 시작했습니다',
      'занята другими пользователями',
      'används av andra användare',
      'зайнята іншими користувачами',
      '其他用户正在使用数据库',
      '正在被其他使用者存取',
    ],
    // In other words: PostgreSQL's DROP DATABASE page says the command fails "if anyone else is connected to
    // the target database", so people ask how to drop a database with active or open connections, and end
    // them with pg_terminate_backend (the remedy's own function, as in the FAQ §17).
    phrases: [
      'cannot drop database',
      'drop database fails',
      'drop database with active connections',
      'drop database with open connections',
      // What test harnesses and reset tools say when they end the sessions before the drop (tune: pull requests of
      // migration and test tools).
      'terminating existing connections to the database',
      'terminate all existing connections to the target database',
      'make drop database error',
    ],
    context: ['postgres', 'postgresql', 'drop database', 'psql', 'dropdb', 'ObjectInUse', 'pg_stat_activity', 'pg_terminate_backend'],
    // The same message from CREATE DATABASE … TEMPLATE names the template as the "source database": a copy
    // is blocked, not a drop, and terminating the template's sessions and dropping is not the answer.
    // Sources: PostgreSQL's CREATE DATABASE documentation (the template must have no other connections),
    // Vincit/knex-db-manager and odoo/odoo#5833 (source database "template1" / "duplicate_test" is
    // being accessed), docs/FAQs/devtron-troubleshoot.md §17.
    // PostgreSQL's dbcommands.c gives the same refusal for ALTER DATABASE … RENAME TO and SET TABLESPACE
    // (dropping is then the wrong end), and other refusals of DROP DATABASE that ending sessions does not
    // cure: prepared transactions (ROLLBACK PREPARED), a logical replication slot or subscription, the
    // session's own database. The translated "source database" forms share the drop's wording in es, ko,
    // ru, sv, uk and zh_TW. SQL Server's refusal (error 3702, "Cannot drop database … because it is
    // currently in use", Microsoft/vscode-mssql#949) is another product's: pg_stat_activity is not there,
    // and its sessions are ended with ALTER DATABASE … SET SINGLE_USER WITH ROLLBACK IMMEDIATE.
    excludes: [
      // The person looked and no session is open: terminating sessions has nothing to end (a server that
      // counts sessions it no longer has is another product's fault, not this remedy's).
      'no other sessions',
      'no sessions running',
      // The client itself holds the sessions it is asked to drop (a DBeaver or pgAdmin bug, as pgadmin4#1718): ending them
      // from outside only lets the client take them again.
      'dbeaver itself',
      'pgadmin itself',
      'source database',
      'rename to',
      'set tablespace',
      'prepared transaction using the database',
      'prepared transactions using the database',
      'prepared transaction(s) using the database',
      'is used by an active logical replication slot',
      'is being used by logical replication subscription',
      'cannot drop the currently open database',
      'because it is currently in use',
      'SINGLE_USER',
      'base de datos de origen',
      '원본 데이터베이스',
      'исходная база',
      'källdatabasen',
      'вихідна база',
      '來源資料庫',
    ],
  },
  // The refused drop in the database pod's log, and the sessions still open on that database (named in the fix line offered).
  detector: { kind: 'databaseDropRefused', databaseParam: 'database' },
  params: [{ name: 'database', description: 'the database to drop', pattern: '^[A-Za-z_][A-Za-z0-9_-]{0,62}$', example: 'orchestrator_old', placeholder: 'database-name' }],
  stages: [
    {
      id: 'drop',
      title: 'End the sessions on the database, then drop it',
      steps: [
        { kind: 'dropDatabase', does: 'Terminate the backend sessions whose database is the target, then drop the database', risk: 'destructive', databaseParam: 'database' },
      ],
    },
  ],
};
