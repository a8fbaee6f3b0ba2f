/** A limit given in minutes, as a person reads it: `30 min`, `1.5 min`, or `2.4 s` below a minute. */
export function minutesText(minutes: number): string {
  if (minutes < 1) return `${Math.round(minutes * 600) / 10} s`;
  return `${Math.round(minutes * 10) / 10} min`;
}
