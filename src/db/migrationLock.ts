/**
 * The session advisory lock (`pg_advisory_lock(hashtext(key))`) that serialises migrations and
 * grants across processes on one database; any constant works as long as it never changes.
 */
export const MIGRATION_LOCK_KEY = 'fulfillment-sync:migrate';
