import Foundation

/// A due date as an instant: when it falls, and the zone its wall-clock time was meant in (the
/// sender's, or one the text names: "09:00 UTC").
public struct ResolvedDue: Equatable, Sendable {
    /// Milliseconds since the epoch.
    public var at: UInt64
    public var timeZone: String
    public init(at: UInt64, timeZone: String) { self.at = at; self.timeZone = timeZone }
}

/// Resolves a due date as written ("tomorrow", "Friday 5pm", "EOD") against the time the
/// message was sent, in the sender's zone. Pure: the message's time is an input, never the
/// clock, so a message read a week later resolves as it did when it was sent.
///
/// The rules (PROTOCOL.md "Due dates" says the same to people):
/// - A day without a time ("tomorrow", "Friday", "the 28th", "Nov 28") is due at the end of
///   the working day, 17:00. "EOD"/"COB" is 17:00 that day; sent at or after 17:00 it is the
///   end of that day (23:59). "tonight" and "midnight" are 23:59.
/// - A weekday is the next such day whose time is still ahead ("Friday" on a Friday morning is
///   that day; in the evening, a week later). "next Friday" is Friday of next week.
/// - A time without a day ("5pm", "noon") is its next occurrence after the message.
/// - "morning" 09:00, "noon"/"lunch" 12:00, "afternoon" 15:00, "evening" 19:00, "first thing" 09:00.
/// - "EOW"/"end of the week": Friday 17:00. "EOM"/"end of the month": its last day, 17:00.
/// - "in 2 hours", "ETA 5 min": from the message's time; "in 3 days": that day, 17:00.
/// - Summer time is the calendar's: "tomorrow 17:00" is 17:00 on the wall whatever the offset
///   did overnight; a wall time skipped by a spring change moves forward by the gap.
/// - Nothing is guessed from what cannot be placed ("next sprint", "after standup", "3/11"
///   where day and month could be either): the item keeps the text only.
public enum DueTimes {
    public static let endOfDay = (hour: 17, minute: 0)

    public static func resolve(_ text: String, sentAt: UInt64, timeZone: String) -> ResolvedDue? {
        let senderName = TimeZoneName.isValid(timeZone) ? timeZone : "UTC"
        let p = DuePhrase(text)
        guard p.understood else { return nil }
        let sent = Date(timeIntervalSince1970: Double(sentAt) / 1000)
        if let seconds = p.after {
            return ResolvedDue(at: sentAt + UInt64(seconds) * 1000, timeZone: p.zone ?? senderName)
        }
        let sender = calendar(TimeZoneName.zone(senderName)!)
        let wallName = p.zone ?? senderName
        let wall = calendar(TimeZoneName.zone(wallName) ?? sender.timeZone)
        let now = sender.dateComponents([.year, .month, .day, .weekday, .hour, .minute], from: sent)
        let today = Day(year: now.year!, month: now.month!, day: now.day!)
        func at(_ d: Day, _ t: (hour: Int, minute: Int)) -> Date? {
            wall.date(from: DateComponents(year: d.year, month: d.month, day: d.day, hour: t.hour, minute: t.minute))
        }
        var time = p.time ?? endOfDay
        var day: Day
        switch p.day {
        case .none:
            guard p.time != nil else { return nil }
            day = today
            if let t = at(day, time), t <= sent { day = sender.adding(days: 1, to: today) }
        case .relative(let n):
            day = sender.adding(days: n, to: today)
            // "EOD" (or "today") sent after 17:00: the day is not over yet.
            if n == 0 && p.time == nil && (now.hour! * 60 + now.minute! >= endOfDay.hour * 60 + endOfDay.minute) { time = (23, 59) }
        case .weekday(let w, let next):
            var delta = (w - now.weekday! + 7) % 7
            if delta == 0, let t = at(today, time), t <= sent { delta = 7 }
            // Monday-first weeks: "next Friday" said on a Monday is 11 days away, on a Saturday 6.
            if next && (now.weekday! + 5) % 7 + delta <= 6 { delta += 7 }
            day = sender.adding(days: delta, to: today)
        case .date(let y, let m, let d):
            guard let found = nextDate(year: y, month: m, day: d, from: today, in: sender, notBefore: sent, at: { at($0, time) }) else { return nil }
            day = found
        case .endOfWeek(let weeks):
            var delta = (6 - now.weekday! + 7) % 7
            if delta == 0, let t = at(today, time), t <= sent { delta = 7 }
            day = sender.adding(days: delta + 7 * weeks, to: today)
        case .endOfMonth:
            day = lastDay(today, in: sender)
            if let t = at(day, time), t <= sent {
                day = lastDay(sender.adding(days: 1, to: day), in: sender)
            }
        }
        guard let instant = at(day, time), instant.timeIntervalSince1970 >= 0 else { return nil }
        return ResolvedDue(at: UInt64((instant.timeIntervalSince1970 * 1000).rounded()), timeZone: wallName)
    }

    static func calendar(_ z: TimeZone) -> Calendar {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = z
        return c
    }

    /// The next date with these parts at or after today (the year, or the month, left out
    /// moves on until the time is ahead of the message); nil for a date that does not exist.
    private static func nextDate(year: Int?, month: Int?, day: Int, from today: Day, in cal: Calendar, notBefore sent: Date,
                                 at: (Day) -> Date?) -> Day? {
        var candidates: [Day] = []
        if let year, let month { candidates = [Day(year: year, month: month, day: day)] }
        else if let month { candidates = (0...4).map { Day(year: today.year + $0, month: month, day: day) } }
        else { candidates = (0...12).map { k in Day(year: today.year + (today.month - 1 + k) / 12, month: (today.month - 1 + k) % 12 + 1, day: day) } }
        for c in candidates where cal.exists(c) {
            if year != nil { return c }
            if let t = at(c), t > sent { return c }
        }
        return nil
    }

    private static func lastDay(_ d: Day, in cal: Calendar) -> Day {
        var last = 28
        while last < 31 && cal.exists(Day(year: d.year, month: d.month, day: last + 1)) { last += 1 }
        return Day(year: d.year, month: d.month, day: last)
    }
}

/// A calendar day in some zone.
struct Day: Equatable {
    var year: Int, month: Int, day: Int
}

extension Calendar {
    func adding(days n: Int, to d: Day) -> Day {
        // Noon: adding whole days never lands in a summer-time gap or fold.
        let noon = date(from: DateComponents(year: d.year, month: d.month, day: d.day, hour: 12))!
        let c = dateComponents([.year, .month, .day], from: date(byAdding: .day, value: n, to: noon)!)
        return Day(year: c.year!, month: c.month!, day: c.day!)
    }

    func exists(_ d: Day) -> Bool {
        guard (1...12).contains(d.month), (1...31).contains(d.day),
              let noon = date(from: DateComponents(year: d.year, month: d.month, day: d.day, hour: 12)) else { return false }
        let c = dateComponents([.month, .day], from: noon)
        return c.month == d.month && c.day == d.day
    }
}
