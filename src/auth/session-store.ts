/**
 * The SessionStore port: where a client's session lives between runs. `local` keeps it in files
 * under `auth.dataPath/<client>/` (directories 0700, files 0600); `remote` keeps it in Google Cloud
 * Storage and guards it with a lease so two servers never run one session at once.
 *
 * Session data is as sensitive as a password: stores never log it.
 */
export interface SessionLease {
  /** Release the lease (no-op for stores without leases). Idempotent. */
  release(): Promise<void>;
}

export interface AcquireOptions {
  /**
   * Called at most once if the lease is lost while held (another server took it over, or it could
   * not be renewed before it lapsed): the client must stop running the session.
   */
  onLost?: (error: Error) => void;
}

export interface SessionStore {
  readonly type: 'local' | 'remote';
  /** True when a saved session exists for this client. */
  exists(client: string): Promise<boolean>;
  /** The saved session bytes, or null. */
  read(client: string): Promise<Buffer | null>;
  /** Save (replace) the session atomically: a failed write never destroys the previous one. */
  write(client: string, data: Buffer): Promise<void>;
  /** Delete the session (logout, session_expired). Missing sessions are not an error. */
  delete(client: string): Promise<void>;
  /**
   * Take the right to run this client's session. Throws `SESSION_LEASED` when another server
   * holds it. Local stores return a no-op lease.
   */
  acquire(client: string, options?: AcquireOptions): Promise<SessionLease>;
  /**
   * A private (0700) local directory for this client's working files (e.g. the browser profile of
   * whatsapp-web.js). Created on demand.
   */
  workDir(client: string): Promise<string>;
}
