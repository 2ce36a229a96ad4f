/// The message texts the workloads send. Each starts with `SEQ:SENDTIME:` so a receiver can
/// tell which message arrived and how long it took without any table lookup, padded with 'x'
/// to the configured size (64 bytes, as in chatbench).
enum BenchText {
    static func timed(seq: Int, sentNanos: UInt64, bytes: Int) -> String {
        var s = "\(seq):\(sentNanos):"
        if s.utf8.count < bytes { s += String(repeating: "x", count: bytes - s.utf8.count) }
        return s
    }

    /// A W5 text: a few words from a fixed vocabulary, so that a one-word search matches about
    /// `4 / vocabulary` of all messages.
    static func searchable(seq: Int, bytes: Int, vocabulary: Int) -> String {
        var rng = SplitMix(seed: UInt64(seq))
        var s = "m\(seq)"
        for _ in 0..<4 { s += " " + word(Int(rng.next() % UInt64(vocabulary))) }
        s += " "
        if s.utf8.count < bytes { s += String(repeating: "x", count: bytes - s.utf8.count) }
        return s
    }

    /// Word number `i` of the W5 vocabulary: letters only, so every tokenizer keeps it whole.
    static func word(_ i: Int) -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        var n = i, s = "w"
        repeat { s.append(letters[n % 26]); n /= 26 } while n > 0
        return s + "q"
    }

    /// The bench sequence number and send time in a MESSAGE payload (uncompressed field list),
    /// read in place: field 7 is the text. Nil when the text is not a timed bench text.
    @inline(__always)
    static func parseTimed(messagePayload p: UnsafeRawBufferPointer) -> (seq: Int, sentNanos: UInt64)? {
        var i = 0
        let n = p.count
        while i < n {
            let tag = p[i]; i += 1
            var length = 0, shift = 0
            while i < n {
                let b = p[i]; i += 1
                length |= Int(b & 0x7F) << shift
                if b & 0x80 == 0 { break }
                shift += 7
                if shift > 28 { return nil }
            }
            guard length <= n - i else { return nil }
            if tag == 7 { return parseDigits(p, from: i, to: i + length) }
            i += length
        }
        return nil
    }

    @inline(__always)
    private static func parseDigits(_ p: UnsafeRawBufferPointer, from: Int, to: Int) -> (Int, UInt64)? {
        var i = from
        var seq = 0
        while i < to, p[i] >= 48, p[i] <= 57 { seq = seq &* 10 &+ Int(p[i] - 48); i += 1 }
        guard i < to, p[i] == 58, i > from else { return nil }
        i += 1
        let start = i
        var ts: UInt64 = 0
        while i < to, p[i] >= 48, p[i] <= 57 { ts = ts &* 10 &+ UInt64(p[i] - 48); i += 1 }
        guard i < to, p[i] == 58, i > start else { return nil }
        return (seq, ts)
    }
}

/// A small deterministic generator, so W5's texts and queries are the same on every run.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
