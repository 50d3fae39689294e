/**
 * Backups (issue 26 §5): one consistent archive of the database and the file storage, and its
 * restore into an empty install, on PGlite or PostgreSQL whichever made it. `charla backup` and
 * `charla restore` (cli/commands/backup.ts) use these; both take streams, so a server route could
 * send a backup as a download later.
 */
export {
  BackupFormatError,
  defaultArchiveName,
  type Manifest,
  RestoreRefused,
  type Trailer,
} from './format.ts';
export { assertEmptyTarget, type RestoreDeps, type RestoreSummary, restoreBackup } from './restore.ts';
export { type BackupDeps, type BackupSummary, writeBackup } from './write.ts';
