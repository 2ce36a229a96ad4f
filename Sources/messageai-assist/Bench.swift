import ArgumentParser
import Dispatch
import Foundation
import MessageAIAssistant

/// Percentiles of the local engine's jobs: judging one message (with four messages of context)
/// and summarising a 40- and a 200-message thread. Prints figures; asserts nothing.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print p50/p99 of judging a message and summarising a 40- and a 200-message thread.")

    @Option(help: "Timed runs of each job.")
    var runs = 500

    func run() {
        let engine = LocalEngine()
        let thread = BenchThread.make(messages: 40)
        let draft = MessageToJudge(from: "omar", to: ["maya", "li"], text: "Thanks. Could you tag it and post the notes by Friday EOD? Decision: we'll go with the retry change.",
                                   context: Array(thread.messages.suffix(4)))
        let judge = measure(runs) { _ = engine.judge(draft) }
        let summary = measure(max(20, runs / 5)) { _ = engine.summarize(thread) }
        let words = thread.messages.reduce(0) { $0 + $1.text.split(separator: " ").count }
        // Issue 28's target: a summary of 200 messages in under 50 ms at p99.
        let long = BenchThread.make(messages: 200)
        let longSummary = measure(max(20, runs / 10)) { _ = engine.summarize(long) }
        let longWords = long.messages.reduce(0) { $0 + $1.text.split(separator: " ").count }
        // And `/catchup` over 20 conversations of 100 messages: a summary of each (target < 200 ms).
        let conversations = (0..<20).map { k in BenchThread.make(messages: 100, offset: k) }
        let catchUp = measure(max(10, runs / 50)) { for c in conversations { _ = engine.summarize(c) } }
        // The call hint runs on every message that arrives or is sent: its 60 newest messages.
        let timed = BenchThread.make(messages: 60).messages.enumerated().map { TimedLine(from: $1.from, text: $1.text, time: UInt64($0) * 20_000) }
        let hint = measure(runs) { _ = CallHintRule.check(timed, members: 3) }
        print(String(format: "judge one message (4 context):    p50 %.3f ms  p99 %.3f ms  (%d runs)", judge.p50, judge.p99, runs))
        print(String(format: "summarise 40 messages (%d words): p50 %.3f ms  p99 %.3f ms  (%d runs)", words, summary.p50, summary.p99, max(20, runs / 5)))
        print(String(format: "summarise 200 messages (%d words): p50 %.3f ms  p99 %.3f ms  (%d runs)", longWords, longSummary.p50, longSummary.p99,
                     max(20, runs / 10)))
        print(String(format: "summarise 20 conversations of 100 messages (/catchup): p50 %.3f ms  p99 %.3f ms  (%d runs)", catchUp.p50, catchUp.p99,
                     max(10, runs / 50)))
        print(String(format: "call hint over 60 messages: p50 %.3f ms  p99 %.3f ms  (%d runs)", hint.p50, hint.p99, runs))
    }

    func measure(_ n: Int, _ body: () -> Void) -> (p50: Double, p99: Double) {
        body() // warm-up
        var ms: [Double] = []
        for _ in 0..<n {
            let t0 = DispatchTime.now().uptimeNanoseconds
            body()
            ms.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
        }
        ms.sort()
        return (ms[ms.count / 2], ms[min(ms.count - 1, Int(Double(ms.count) * 0.99))])
    }
}

/// A made-up team thread of a chosen length: asks, commitments, answers and a decision.
enum BenchThread {
    static let lines: [(String, String)] = [
        ("maya", "The 2.3 hotfix branch is cut and CI is green on it."),
        ("omar", "Thanks. Could you tag it and post the release notes by 5pm?"),
        ("maya", "Sure, I'll tag it after standup."),
        ("li", "Is staging still on the old certificate?"),
        ("omar", "Yes, it expires on the 28th, so we need to rotate it before then."),
        ("li", "I'll rotate the staging certificate tomorrow 09:00 UTC."),
        ("maya", "Should we keep the retry change or revert it? The cache change looks fine."),
        ("omar", "I'd lean toward keeping it, the error rate dropped by half."),
        ("li", "Decision: we'll go with the retry change and drop the cache flag."),
        ("maya", "@li please update the dashboard by Monday so the on-call team sees the new alerts."),
    ]

    /// `offset` starts the cycle elsewhere, so that conversations differ.
    static func make(messages n: Int, offset: Int = 0) -> ThreadToSummarize {
        ThreadToSummarize(participants: ["maya", "omar", "li"],
                          messages: (0..<n).map { ChatLine(from: lines[($0 + offset) % lines.count].0, text: lines[($0 + offset) % lines.count].1) })
    }
}
