import type { JobError, JobStatus, JobView } from '../jobs/job-store.ts';
import type { ColumnName } from './tables.ts';

/** The columns of a job that clients see, as either engine returns them (times in epoch milliseconds). */
export interface JobRow {
  id: string;
  task: string;
  status: JobStatus;
  progress: number;
  result: string | null;
  error: string | null;
  created_at: number;
  updated_at: number;
}

/** The columns of JobRow, as both engines select them. */
export const JOB_COLUMNS = (
  ['id', 'task', 'status', 'progress', 'result', 'error', 'created_at', 'updated_at'] satisfies (keyof JobRow &
    ColumnName<'jobs'>)[]
).join(', ');

/** A stored job as getJobStatus shows it. */
export function toJobView(row: JobRow): JobView {
  return {
    jobId: row.id,
    task: row.task,
    status: row.status,
    progress: row.progress,
    result: row.result === null ? null : (JSON.parse(row.result) as Record<string, unknown>),
    error: row.error === null ? null : (JSON.parse(row.error) as JobError),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}
