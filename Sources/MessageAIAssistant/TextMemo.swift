import Foundation

/// The sentences, tokens and words of the texts one judgement or one summary reads, worked out
/// once per text. The rules ask again and again: every tone rule re-splits the message, each
/// context message is split by several rules, and in a summary each message is context to the
/// next four. Bound for one `LocalEngine` call by `during`; outside it (a test calling one rule)
/// nothing is kept. The results are pure functions of the text, so answers cannot change.
final class TextMemo: @unchecked Sendable {
    // @unchecked: a memo is created by `during` and only read and written by the synchronous
    // call it is bound to, on that call's thread; nothing inside the engine is concurrent.
    @TaskLocal static var current: TextMemo?

    private var sentences: [ExactText: [String]] = [:]
    private var tokens: [ExactText: [Token]] = [:]
    private var words: [ExactText: [String]] = [:]
    private var content: [ExactText: [String]] = [:]
    private var phrases: [ExactText: [NounPhrase]] = [:]
    private var states: [ExactText: Bool] = [:]
    private var found: [ExactMessage: [ActionRules.Found]] = [:]

    /// Runs `body` with a fresh memo, or with the caller's when one is already bound.
    static func during<T>(_ body: () -> T) -> T {
        current == nil ? $current.withValue(TextMemo(), operation: body) : body()
    }

    static func sentences(_ text: String, _ make: (String) -> [String]) -> [String] {
        guard let memo = current else { return make(text) }
        return lookup(&memo.sentences, text, make)
    }

    static func tokens(_ text: String, _ make: (String) -> [Token]) -> [Token] {
        guard let memo = current else { return make(text) }
        return lookup(&memo.tokens, text, make)
    }

    static func words(_ text: String, _ make: (String) -> [String]) -> [String] {
        guard let memo = current else { return make(text) }
        return lookup(&memo.words, text, make)
    }

    static func content(_ text: String, _ make: (String) -> [String]) -> [String] {
        guard let memo = current else { return make(text) }
        return lookup(&memo.content, text, make)
    }

    static func phrases(_ text: String, _ make: (String) -> [NounPhrase]) -> [NounPhrase] {
        guard let memo = current else { return make(text) }
        return lookup(&memo.phrases, text, make)
    }

    /// Whether a sentence alone states a decision: asked of each sentence by the action rules and
    /// by the summary's sentence picking, with the same answer each time.
    static func states(_ text: String, _ make: (String) -> Bool) -> Bool {
        guard let memo = current else { return make(text) }
        return lookup(&memo.states, text, make)
    }

    static func found(_ m: MessageToJudge, _ make: (MessageToJudge) -> [ActionRules.Found]) -> [ActionRules.Found] {
        guard let memo = current else { return make(m) }
        let key = ExactMessage(message: m)
        if let hit = memo.found[key] { return hit }
        // Not through `lookup`: finding a reply's items finds its ask's, which reads this table.
        let value = make(m)
        memo.found[key] = value
        return value
    }

    private static func lookup<V>(_ table: inout [ExactText: V], _ text: String, _ make: (String) -> V) -> V {
        let key = ExactText(text: text)
        if let hit = table[key] { return hit }
        let value = make(text)
        table[key] = value
        return value
    }
}

/// A text compared by its UTF-8 bytes. String's own == and hash treat canonically equivalent
/// texts as equal ("é" and "e" + U+0301), and a memo keyed that way would hand one spelling's
/// sentences to the other, changing the bytes of an answer.
struct ExactText: Hashable {
    let text: String

    static func == (a: ExactText, b: ExactText) -> Bool { same(a.text, b.text) }

    static func same(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        let fast = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y in x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 }
        }
        return (fast ?? nil) ?? a.utf8.elementsEqual(b.utf8)
    }

    func hash(into hasher: inout Hasher) {
        let contiguous: Void? = text.utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        if contiguous == nil { for b in text.utf8 { hasher.combine(b) } }
    }
}

/// A message to judge compared field by field on exact bytes, like `ExactText`.
struct ExactMessage: Hashable {
    let message: MessageToJudge

    static func == (a: ExactMessage, b: ExactMessage) -> Bool {
        let (x, y) = (a.message, b.message)
        return ExactText.same(x.text, y.text) && ExactText.same(x.from, y.from)
            && x.to.count == y.to.count && zip(x.to, y.to).allSatisfy { ExactText.same($0, $1) }
            && x.context.count == y.context.count
            && zip(x.context, y.context).allSatisfy { ExactText.same($0.from, $1.from) && ExactText.same($0.text, $1.text) }
    }

    func hash(into hasher: inout Hasher) {
        ExactText(text: message.text).hash(into: &hasher)
        ExactText(text: message.from).hash(into: &hasher)
        hasher.combine(message.to.count)
        for name in message.to { ExactText(text: name).hash(into: &hasher) }
        hasher.combine(message.context.count)
        for line in message.context {
            ExactText(text: line.from).hash(into: &hasher)
            ExactText(text: line.text).hash(into: &hasher)
        }
    }
}
