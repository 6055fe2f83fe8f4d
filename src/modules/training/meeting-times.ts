/**
 * A meeting's times as a learner reads them in a mail: in the session's own time zone, with the
 * zone's name and its UTC offset at the start (e.g. `2027-09-01 16:00 to 18:00 Asia/Tokyo
 * (UTC+09:00)`); the end's date is written only when it falls on another day there. The calendar
 * attachment carries the exact instants; this is the human-readable line beside it.
 */
export function meetingTimes(startsAt: Date, endsAt: Date, timeZone: string): string {
  const start = local(startsAt, timeZone);
  const end = local(endsAt, timeZone);
  const until = end.date === start.date ? end.time : `${end.date} ${end.time}`;
  return `${start.date} ${start.time} to ${until} ${timeZone} (${start.offset})`;
}

const formats = new Map<string, Intl.DateTimeFormat>();

function local(at: Date, timeZone: string): { date: string; time: string; offset: string } {
  let f = formats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'longOffset',
    });
    formats.set(timeZone, f);
  }
  const p = Object.fromEntries(f.formatToParts(at).map((x) => [x.type, x.value]));
  // longOffset answers "GMT+09:00", or "GMT" for a zero offset
  const offset = p.timeZoneName === 'GMT' ? 'UTC+00:00' : p.timeZoneName.replace('GMT', 'UTC');
  return { date: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}`, offset };
}
