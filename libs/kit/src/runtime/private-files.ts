/**
 * Everything the platform writes is its owner's alone
 * (docs/adr/0091-backup-and-restore.md): every process of the platform (each service, the gateway, `npm start`, and the backup
 * and restore scripts) sets the umask 077 first, so that whatever it, a library in it (tus's file
 * store, pg_dump under a backup) or a child it starts creates is 0600 (files) or 0700 (folders)
 * unless a mode is asked for explicitly: stored files and tus parking, backups, `.data/` and its
 * secrets, log files. Group and others get nothing; on Kubernetes the volume's group (fsGroup) is
 * the pod's, and every process reading those files runs as the same user.
 */

/** The umask of every platform process: no bit for group or others. */
export const PRIVATE_UMASK = 0o077;

/** Sets this process's umask to PRIVATE_UMASK; a worker thread cannot (Node refuses), and is left as it is. */
export function keepWritesPrivate(): void {
  process.umask(PRIVATE_UMASK);
}
