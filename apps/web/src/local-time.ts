/** Two digits, as clocks and dates show them. */
const two = (value: number) => String(value).padStart(2, '0');

/**
 * A moment as the page lists it: the local date and time to the minute (`2026-12-05 14:30`).
 * Not `toLocaleString`: the browser's first date formatting costs tens of milliseconds, spent
 * while a session opens.
 */
export function localTime(iso: string): string {
  const date = new Date(iso);
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}`;
}
