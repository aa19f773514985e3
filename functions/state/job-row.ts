import type { JobError, JobStatus, JobView } from '../jobs/job-store.ts';

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
