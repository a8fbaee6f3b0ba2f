import { z } from 'zod';
import type { DoctorReport } from './scan.js';

/** A doctor's report as it comes back from a worker: checked before the bot renders it. */
export const doctorReportSchema: z.ZodType<DoctorReport> = z.object({
  findings: z.array(
    z.object({
      id: z.string(),
      ref: z.string(),
      title: z.string(),
      state: z.enum(['present', 'absent', 'unknown', 'not-observable']),
      evidence: z.array(z.object({ object: z.string(), detail: z.string() })),
      reason: z.enum(['forbidden', 'unreachable', 'not-installed', 'error', 'no-detector']).optional(),
      message: z.string().optional(),
    }),
  ),
  startedAt: z.string(),
  tookMs: z.number(),
});
