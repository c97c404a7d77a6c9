// One place that turns the clock into the stored timestamp format.
export function nowIso(date: Date = new Date()): string {
  return date.toISOString();
}
