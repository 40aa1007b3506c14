/** A PageResponse of the platform (docs/interface.md#lists). */
export interface Page<T> {
  content: T[];
  page: number;
  size: number;
  totalElements: number;
  totalPages: number;
}

/** A login session as the session endpoints answer it (docs/interface.md#sessions-and-logs). */
export interface Session {
  sessionId: string;
  userCode: string;
  accountNo: string;
  crProcessId: number;
  ipAddress: string | null;
  userAgent: string | null;
  loginAt: string;
  lastSeenAt: string;
  expiresAt: string;
  logoutAt: string | null;
  active: boolean;
}

/** An exception-log entry (docs/interface.md#sessions-and-logs). */
export interface ExceptionEntry {
  refId: string;
  service: string;
  errorCode: string;
  message: string;
  path: string | null;
  method: string | null;
  userCode: string | null;
  crProcessId: number | null;
  stack: string | null;
  createdAt: string;
  projectCode: string | null;
  requestId: string | null;
}
