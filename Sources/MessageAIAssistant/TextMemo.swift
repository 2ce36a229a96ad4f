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

    static func == (a: ExactText, b: ExactText) -> Bool {
        a.text.utf8.count == b.text.utf8.count && a.text.utf8.elementsEqual(b.text.utf8)
    }

    func hash(into hasher: inout Hasher) {
        let contiguous: Void? = text.utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        if contiguous == nil { for b in text.utf8 { hasher.combine(b) } }
    }
}
