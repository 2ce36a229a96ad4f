import Foundation
@preconcurrency import CEditline
#if canImport(Glibc)
import Glibc
#endif

/// A workaround for a heap corruption in Debian's libedit (3.1-20221030), readline layer.
///
/// libedit keeps the line as wide characters and hands out a UTF-8 copy in a conversion
/// buffer that grows, by `realloc`, in 1 KiB steps whenever a longer line is encoded.
/// `rl_line_buffer` points into that buffer, but libedit re-points it only when the *wide*
/// buffer doubles (its resize hook), never when the conversion buffer moves. After each key,
/// `rl_callback_read_char` encodes the line (the buffer may move) and then writes
/// `rl_line_buffer[rl_end] = '\0'` through the old pointer: a write into freed memory once
/// the line passes 1 KiB, 2 KiB ... (valgrind: "Invalid write of size 1 ... inside a block
/// of size 1,024 free'd", realloc in ct_encode_string). A 1,100-character line already does
/// it; glibc noticed at about 8,000 (`malloc(): invalid next size`). A plain C program
/// against libedit alone does the same (issue 24).
///
/// The fix from outside libedit: grow the conversion buffer once, at start, to `capacity`
/// bytes, and let libedit re-point `rl_line_buffer` at the grown buffer (by making its wide
/// buffer double while the line is short). From then on the buffer never moves as long as
/// the line stays below `capacity` bytes, which the key reader enforces: a paste is handed
/// to libedit in one insertion when it fits, and otherwise goes whole to the sender (it is
/// then far over any message limit and gets the limit error); a key that could grow the
/// line past it (a yank, a history entry) is refused with a notice. `capacity` is 64,512
/// four-byte characters: over six times the 10,000-character message limit in any script.
/// It costs libedit's buffers about 2.6 MB (resident at the prompt: 44.2 MB before, 46.9 MB
/// after) and nothing measurable at start.
enum LineBuffer {
    /// Characters of the line that grows the conversion buffer (four UTF-8 bytes each); the
    /// wide buffer then needs 65,536 entries, the next doubling (131,072) re-points the line.
    private static let growCharacters = 64_512
    /// Bytes the line may take in UTF-8 while the conversion buffer stays where it is.
    static let capacity = 4 * growCharacters
    /// The longest line libedit held or may recall (history, the kill buffer), in bytes.
    nonisolated(unsafe) private(set) static var longestSeen = 0
    nonisolated(unsafe) private static var prepared = false
    /// Where libedit's trailing write lands while `rl_line_buffer` would dangle (step 3).
    nonisolated(unsafe) private static var harbour: UnsafeMutablePointer<CChar> = {
        let p = UnsafeMutablePointer<CChar>.allocate(capacity: 16)
        p.initialize(repeating: 0, count: 16)
        return p
    }()

    /// Once, after `rl_callback_handler_install` (libedit initialised, callback mode on).
    static func prepare() {
        guard !prepared else { return }
        prepared = true
        // 1. A line of four-byte characters: the wide buffer grows (65,536 entries).
        _ = rl_insert_text(String(repeating: "\u{10000}", count: growCharacters))
        // 2. Encoding it grows the conversion buffer to `capacity`: it moves, and
        //    rl_line_buffer now dangles...
        free(rl_copy_text(0, 0))
        // 3. ...so it points at a harbour of ours while Ctrl-U clears the line.
        rl_line_buffer = harbour
        clearThroughLibedit()
        // 4. An ASCII line as long as the wide buffer makes it double: libedit's resize hook
        //    encodes the (empty) line, which fits, and points rl_line_buffer at the grown buffer.
        _ = rl_insert_text(String(repeating: "x", count: 65_536))
        precondition(rl_line_buffer != harbour, "libedit did not re-point rl_line_buffer")
        // 5. Clear it, then clear the empty line so the kill buffer (Ctrl-Y) is empty too.
        clearThroughLibedit()
        clearThroughLibedit()
        rl_end = 0
        rl_point = 0
        rl_line_buffer[0] = 0
        noteHistory()
    }

    private static func clearThroughLibedit() {
        KeyReader.inject(0x15)
        rl_callback_read_char()
    }

    /// The longest history entry counts: Up or Ctrl-R puts it on the line.
    static func noteHistory() {
        guard history_length > 0 else { return }
        for i in 0..<history_length {
            if let entry = history_get(history_base + i), let line = entry.pointee.line {
                seen(strlen(line))
            }
        }
    }

    static func seen(_ bytes: Int) { longestSeen = max(longestSeen, bytes) }

    /// Whether `bytes` more can join the line (one insertion) without moving the buffer.
    static func fits(adding bytes: Int) -> Bool {
        !prepared || Int(max(rl_end, 0)) + bytes + 16 < capacity
    }

    /// The most a key that is neither typed text nor a deletion or movement can add: a yank
    /// (the kill buffer), a recalled history line, a copied word (part of the line).
    static var largestGrowth: Int { Int(max(rl_end, 0)) + longestSeen + 16 }

    /// Inserts `text` at the cursor in one piece (one redraw, not one per character) and
    /// publishes the line again: rl_insert_text leaves rl_end, rl_point and the UTF-8 copy
    /// of the line as they were.
    static func insert(_ text: String) {
        // The UTF-8 copy is current (the buffer no longer moves, and each key re-encodes it),
        // while rl_end and rl_point are not after a key that emptied the line: libedit
        // returns early there without publishing them.
        let end = strlen(rl_line_buffer)
        let point = end == 0 ? 0 : min(Int(max(rl_point, 0)), end)
        guard text.withCString({ rl_insert_text($0) }) > 0 else { return }
        free(rl_copy_text(0, 0))  // encodes the line into the (unmoved) buffer
        rl_end = Int32(strlen(rl_line_buffer))
        rl_point = Int32(min(point + text.utf8.count, Int(rl_end)))
        seen(Int(rl_end))
    }
}

/// The text libedit holds, as its readline layer publishes it (bytes, cursor as a byte offset).
enum LineText {
    /// A line was accepted by the key being read / by the last key: libedit's copy is stale.
    nonisolated(unsafe) static var accepted = false
    nonisolated(unsafe) static var stale = false

    static var isEmpty: Bool { stale || rl_end <= 0 }

    static func current() -> (before: String, after: String) {
        guard !stale, let buf = rl_line_buffer, rl_end > 0 else { return ("", "") }
        let end = Int(rl_end), point = min(max(Int(rl_point), 0), end)
        return buf.withMemoryRebound(to: UInt8.self, capacity: end) { p in
            (String(decoding: UnsafeBufferPointer(start: p, count: point), as: UTF8.self),
             String(decoding: UnsafeBufferPointer(start: p + point, count: end - point), as: UTF8.self))
        }
    }

    static func scalarsBeforeCursor() -> Int { current().before.last?.unicodeScalars.count ?? 1 }
    static func scalarsAfterCursor() -> Int { current().after.first?.unicodeScalars.count ?? 1 }
}
