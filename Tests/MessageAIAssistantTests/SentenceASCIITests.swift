@testable import MessageAIAssistant
import XCTest

/// `Sentences.splitASCII` (bytes) must split exactly as `Sentences.splitCharacters` (the
/// Character reading) on any ASCII text: generated texts made of the characters the rules react to.
final class SentenceASCIITests: XCTestCase {
    func testByteSplitAgreesWithCharacterSplitOnGeneratedText() {
        let pieces = [" ", "  ", ".", "!", "?", ";", "\n", "\r", "\r\n", "\t", "-", "*", "(", ")", "1", "12", "123", "a", "E", "g",
                      "e.g.", "i.e.", "Mr.", "NO.", "etc.", "v2.3", "5.30pm", "Tag it", "1)", "(2)", "3.", "?!", "...", ":"]
        var rng = SplitMix(seed: 42)
        for _ in 0..<20_000 {
            let text = (0..<Int(rng.next() % 16)).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined()
            XCTAssertEqual(Sentences.splitASCII(text).map { Array($0.utf8) }, Sentences.splitCharacters(text).map { Array($0.utf8) }, text.debugDescription)
        }
    }

    func testWhatPeopleTypeSplitsTheSameBothWays() {
        for text in ["The 2.3 branch is cut. Could you tag it, e.g. as v2.3? Thanks!", "1) Li updates the page 2) Ken drafts the email",
                     "- first\n- second", "a\r\nb. c\rd\n\ne", "", "   ", String(repeating: "long line. ", count: 2000)] {
            XCTAssertEqual(Sentences.splitASCII(text), Sentences.splitCharacters(text), text.debugDescription)
        }
    }

    func testASCIIReplacementMatchesFoundation() {
        for (text, needle, with) in [("aaa", "aa", "b"), ("it's Li's", "'", "APOS"), ("apos apos", "apos", "'"), ("x's y's ", "'s ", " "),
                                     ("no match", "zz", "y"), ("ends with 's", "'s", ""), ("a'b'c'", "'", "’")] {
            XCTAssertEqual(Array(text.replacingPresent(needle, with: with).utf8), Array(text.replacingOccurrences(of: needle, with: with).utf8), text)
        }
    }
}

/// A small seeded generator, so a failure names a text that can be replayed.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
