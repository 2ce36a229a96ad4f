import Foundation

/// A message with the time it was sent, for judgements that depend on pace.
public struct TimedLine: Sendable, Equatable {
    public var from: String
    public var text: String
    /// Milliseconds since 1970 (the server's time).
    public var time: UInt64
    public init(from: String, text: String, time: UInt64) { self.from = from; self.text = text; self.time = time }
}

/// "This would be quicker as a call" (seed story US-2.11): a DM or a small group going back and
/// forth, fast, on one question nobody has settled. `start` is the index of the question that
/// opened the episode: the same episode gives the same `start` on every later message, which is
/// how a client shows the hint once per episode.
public struct CallHint: Sendable, Equatable {
    /// The episode's first question: the same for every message of the episode.
    public var start: Int
    /// The question the back-and-forth is about (at `start` or later in the episode).
    public var asked: Int
    public var question: String
    /// Changes of speaker since the question.
    public var turns: Int
    public var speakers: [String]
    /// From the question to the newest message.
    public var minutes: Int

    public init(start: Int, asked: Int, question: String, turns: Int, speakers: [String], minutes: Int) {
        self.start = start; self.asked = asked; self.question = question; self.turns = turns; self.speakers = speakers; self.minutes = minutes
    }
}

/// The detector: a pure function over the newest messages of one conversation, no I/O.
///
/// It fires only when every one of these holds, so that friendly chatter, a quick exchange that
/// ends in "got it", one person posting a series of notes, two people posting their own updates
/// and a big group's discussion stay quiet:
/// - the conversation has 2 to `maxMembers` members;
/// - the newest messages form one burst: no gap over `maxGap`, all within `window`;
/// - in the burst, a question of at least two words opens an episode that nothing after it closes
///   (a thanks, "got it", "that works", a 👍, a laugh: see `CallHintCues.closers`);
/// - after that question, or a later one of the episode, the speaker changes at least `minTurns`
///   times, and each of the two busiest speakers writes at least `minEach` messages;
/// - the replies stay unsettled: at least half of them ask again or push back, and at least
///   `minPushback` of them say it did not work, was not understood or is not agreed
///   ("still fails", "what do you mean", "no, the other one").
public enum CallHintRule {
    public static let maxMembers = 4
    /// "More than N back-and-forth turns" with N = 5.
    public static let minTurns = 6
    public static let minEach = 3
    public static let minPushback = 2
    public static let window: UInt64 = 20 * 60 * 1000
    public static let maxGap: UInt64 = 5 * 60 * 1000

    /// The hint for the newest message of `lines` (oldest first), or nil.
    public static func check(_ lines: [TimedLine], members: Int) -> CallHint? {
        guard members >= 2, members <= maxMembers, let last = lines.last else { return nil }
        // The burst: back from the newest message while the pace holds.
        var b = lines.count - 1
        while b > 0, lines[b].time >= lines[b - 1].time, lines[b].time - lines[b - 1].time <= maxGap,
              last.time - lines[b - 1].time <= window { b -= 1 }
        // The episode opens at the first real question after the last message that settled things
        // (or that the burst keeps).
        var cues: [Int: CallHintCues.Reading] = [:]
        var start: Int?
        for i in b..<lines.count {
            let cue = CallHintCues.read(lines[i].text)
            cues[i] = cue
            if start != nil && cue.closes { start = nil; continue }
            if start == nil && cue.asksQuestion { start = i }
        }
        guard let opening = start else { return nil }
        // The exchange may have turned into a back-and-forth only later in the episode (answered
        // questions before it dilute nothing): the first question from which every test holds.
        for s in opening..<lines.count where cues[s]?.asksQuestion == true {
            switch exchange(lines[s...], replies: ((s + 1)..<lines.count).compactMap { cues[$0] }) {
            case .tooShort: return nil  // a later question has even fewer turns after it
            case .notUnsettled: continue
            case .unsettled(let turns, let speakers):
                return CallHint(start: opening, asked: s, question: CallHintCues.question(lines[s].text), turns: turns, speakers: speakers,
                                minutes: Int((last.time - lines[s].time) / 60_000))
            }
        }
        return nil
    }

    enum Exchange { case tooShort, notUnsettled, unsettled(turns: Int, speakers: [String]) }

    /// The messages from one question on: enough turns, two people in it, and unsettled replies.
    static func exchange(_ episode: ArraySlice<TimedLine>, replies: [CallHintCues.Reading]) -> Exchange {
        var turns = 0
        var counts: [String: Int] = [:]
        var previous: String?
        for m in episode {
            let who = m.from.lowercased()
            counts[who, default: 0] += 1
            if let previous, previous != who { turns += 1 }
            previous = who
        }
        guard turns >= minTurns else { return .tooShort }
        let busiest = counts.values.sorted(by: >)
        guard busiest.count >= 2, busiest[1] >= minEach else { return .notUnsettled }
        let pushback = replies.filter(\.pushesBack).count
        let unsettled = replies.filter { $0.pushesBack || $0.asks }.count
        guard pushback >= minPushback, unsettled * 2 >= replies.count else { return .notUnsettled }
        let speakers = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map(\.key)
        return .unsettled(turns: turns, speakers: speakers)
    }
}
