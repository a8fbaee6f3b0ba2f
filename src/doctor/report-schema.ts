import { z } from 'zod';
import type { DoctorReport, Finding } from './scan.js';
import type { Verification } from './verify.js';

/** One finding as it comes back from a worker. */
export const findingSchema: z.ZodType<Finding> = z.object({
  id: z.string(),
  ref: z.string(),
  title: z.string(),
  state: z.enum(['present', 'absent', 'unknown', 'not-observable']),
  evidence: z.array(z.object({ object: z.string(), detail: z.string() })),
  reason: z.enum(['forbidden', 'unreachable', 'not-installed', 'error', 'no-detector']).optional(),
  message: z.string().optional(),
  fixParams: z.record(z.string(), z.string()).optional(),
});

/** A doctor's report as it comes back from a worker: checked before the bot renders it. */
export const doctorReportSchema: z.ZodType<DoctorReport> = z.object({
  findings: z.array(findingSchema),
  startedAt: z.string(),
  tookMs: z.number(),
});

/** A finished run's look at its entry's symptom, as it comes back from a worker. */
export const verificationSchema: z.ZodType<Verification> = z.object({
  finding: findingSchema,
  looks: z.number().int().min(1),
  waitedMs: z.number().min(0),
  looked: z.array(z.string()),
});
