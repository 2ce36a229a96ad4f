@testable import MessageAIAssistant
import XCTest

/// `Sentences.splitASCII` (bytes) must split exactly as `Sentences.splitCharacters` (the
/// Character reading) on any ASCII text: random texts made of the characters the rules react to.
final class SentenceASCIITests: XCTestCase {
    func testByteSplitAgreesWithCharacterSplitOnGeneratedText() {
        let pieces = [" ", "  ", ".", "!", "?", ";", "\n", "\r", "\r\n", "\t", "-", "*", "(", ")", "1", "12", "123", "a", "E", "g",
                      "e.g.", "i.e.", "Mr.", "NO.", "etc.", "v2.3", "5.30pm", "Tag it", "1)", "(2)", "3.", "?!", "...", ":"]
        for _ in 0..<20_000 {
            // A failure prints the text, which replays it.
            let text = (0..<Int.random(in: 0..<16)).map { _ in pieces.randomElement()! }.joined()
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
