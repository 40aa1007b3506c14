import { databaseUrlOf } from '../config/database-url.ts';
import { jobSender, type JobSender } from '../jobs/job-sender.ts';

let sender: JobSender | undefined;

/** The process's sender of import jobs to its worker, on DATABASE_URL (started on the first send). */
export function importSender(): JobSender {
  sender ??= jobSender(databaseUrlOf());
  return sender;
}
