import { meetingTimes } from './meeting-times';

describe('meetingTimes: a meeting in the session time zone, for the mail text', () => {
  it('writes the local date and times, the zone and its offset (not UTC labelled with the zone)', () => {
    expect(meetingTimes(new Date('2027-09-01T07:00:00Z'), new Date('2027-09-01T09:00:00Z'), 'Asia/Tokyo')).toBe('2027-09-01 16:00 to 18:00 Asia/Tokyo (UTC+09:00)');
  });
  it('follows daylight saving time, and a zero offset reads UTC+00:00', () => {
    expect(meetingTimes(new Date('2027-07-01T08:30:00Z'), new Date('2027-07-01T10:00:00Z'), 'Europe/Paris')).toBe('2027-07-01 10:30 to 12:00 Europe/Paris (UTC+02:00)');
    expect(meetingTimes(new Date('2027-01-15T08:30:00Z'), new Date('2027-01-15T10:00:00Z'), 'Europe/Paris')).toBe('2027-01-15 09:30 to 11:00 Europe/Paris (UTC+01:00)');
    expect(meetingTimes(new Date('2027-01-15T08:30:00Z'), new Date('2027-01-15T10:00:00Z'), 'UTC')).toBe('2027-01-15 08:30 to 10:00 UTC (UTC+00:00)');
  });
  it('writes the end date when the meeting ends on another local day', () => {
    expect(meetingTimes(new Date('2027-09-01T21:00:00Z'), new Date('2027-09-02T01:00:00Z'), 'America/New_York')).toBe('2027-09-01 17:00 to 21:00 America/New_York (UTC-04:00)');
    expect(meetingTimes(new Date('2027-09-01T13:00:00Z'), new Date('2027-09-01T16:00:00Z'), 'Asia/Tokyo')).toBe('2027-09-01 22:00 to 2027-09-02 01:00 Asia/Tokyo (UTC+09:00)');
  });
});
