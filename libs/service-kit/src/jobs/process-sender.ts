import { databaseUrlOf } from '../config/database-url.ts';
import { jobSender, type JobSender } from './job-sender.ts';

let sender: JobSender | undefined;

/**
 * The process's one sender of on-demand jobs to its service's worker (an import run, a file's text
 * extraction), on DATABASE_URL: started on the first send, one connection however many kinds it sends.
 */
export function processJobSender(): JobSender {
  sender ??= jobSender(databaseUrlOf());
  return sender;
}
