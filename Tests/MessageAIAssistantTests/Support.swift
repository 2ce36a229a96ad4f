@testable import MessageAIAssistant
import XCTest

let engine = LocalEngine()

/// A message from omar: to maya alone by default, or to a group.
func judge(_ text: String, to: [String] = ["maya"], context: [(String, String)] = [], from: String = "omar") -> Judgement {
    engine.judge(MessageToJudge(from: from, to: to, text: text, context: context.map { ChatLine(from: $0.0, text: $0.1) }))
}

let group = ["maya", "li", "ken"]

/// A thread of (sender, text) lines among `people`, summarised.
func summarized(_ lines: [(String, String)], people: [String]) -> ThreadSummary {
    engine.summarize(ThreadToSummarize(participants: people, messages: lines.map { ChatLine(from: $0.0, text: $0.1) }))
}
