@testable import MessageAIAssistant
import Foundation
import XCTest

/// The engine's pure-Swift string helpers must give exactly what the Foundation calls they
/// replace gave, byte for byte, on what people really type.
final class TextFastTests: XCTestCase {
    static let samples = [
        "", " ", "\t", "\u{A0}\u{3000}", "  \n  \r\n ", "plain words, nothing else.", "Tag it.  ",
        "\u{2009}thin space\u{202F}", "\u{200B}zero width\u{200B}", " \u{301}combining mark after a space", "e\u{301}té vs été ", "I’ll send the café menu 東京 👍🏽",
        "👩‍💻 שלום עולם ", "ＦＵＬＬＷＩＤＴＨ ２pm", "İstanbul STRASSE Straße ΣΊΣΥΦΟΣ", "\u{212A}elvin 300\u{212A}", "٣ bugs ² ½ x³",
        "Li's plan's fine, Omar's 's ", "don’t won’t ‘quoted’", "tab\tseparated\twords\u{1680}ogham", "\u{85}next line\u{2028}",
        String(repeating: "very long line ", count: 500),
    ]

    func testSpaceTestMatchesFoundationWhitespacesForEveryScalar() {
        for v in UInt32(0)...0x10FFFF {
            guard let s = Unicode.Scalar(v) else { continue }
            XCTAssertEqual(s.isSpaceOrTab, CharacterSet.whitespaces.contains(s), "U+\(String(v, radix: 16))")
        }
    }

    func testPunctuationTestMatchesFoundationForEveryScalar() {
        for v in UInt32(0)...0x10FFFF {
            guard let s = Unicode.Scalar(v) else { continue }
            XCTAssertEqual(s.isPunctuationMark, CharacterSet.punctuationCharacters.contains(s), "U+\(String(v, radix: 16))")
        }
    }

    func testTrimmingSpacesMatchesFoundation() {
        for s in Self.samples + Self.samples.map({ " \t" + $0 + "\u{3000} " }) {
            XCTAssertEqual(Array(s.trimmingSpaces().utf8), Array(s.trimmingCharacters(in: .whitespaces).utf8), s)
        }
    }

    func testReplacingPresentMatchesFoundation() {
        for s in Self.samples + ["’\u{301}s ", "Omar’s ’ ‘", "it's done", "'s "] {
            for (needle, with) in [("’", "'"), ("‘", "'"), ("'s ", " "), ("?", ""), ("'", "APOS")] {
                XCTAssertEqual(Array(s.replacingPresent(needle, with: with).utf8), Array(s.replacingOccurrences(of: needle, with: with).utf8), s)
            }
        }
    }

    func testContainsMatchesFoundationsSearch() {
        let texts = Self.samples + ["never mind\u{301}", "Agreed?\u{301} ok", "?\u{301}", "a\r\nb", "Kelvin \u{212A}; \u{37E}", "the cafe\u{301} menu"]
        for s in texts {
            for needle in ["?", " you ", "never mind", "agreed?", "cafe", "café", "e", "\u{301}", "K", ";", "\n", "a\r", "", "’", " "] {
                XCTAssertEqual(s.contains(needle), s.range(of: needle) != nil, "\(s.debugDescription) \(needle.debugDescription)")
            }
        }
    }

    func testASCIIByteTestsAgreeWithCharacterProperties() {
        for b in UInt8(0)..<128 {
            let c = Character(Unicode.Scalar(b))
            XCTAssertEqual(c.isWhitespace, b == 0x20 || (0x09...0x0D).contains(b), "byte \(b)")
            XCTAssertEqual(Tokenizer.leading.contains(c), Tokenizer.leading.set.contains(c))
            XCTAssertEqual(Tokenizer.trailing.contains(c), Tokenizer.trailing.set.contains(c))
        }
        XCTAssertTrue(Character("\r\n").isWhitespace)
        XCTAssertFalse(Tokenizer.trailing.contains("\r\n"))
        XCTAssertTrue(Tokenizer.trailing.contains("’"))
        XCTAssertFalse(Tokenizer.trailing.contains("?\u{301}"))
        for w in ["SHIP", "TLS", "Ok", "A", "IT'S", "A1", "ÇA", "ＯＫ", "OK!"] {
            XCTAssertEqual(Token(raw: w, lower: w.lowercased(), after: "", before: "").isAllCaps, allCapsWithoutShortcut(w), w)
        }
        for w in ["testing", "tested", "fixes", "docs", "release", "use", "bee", "ring", "sing", "ses", "e", "", "naïve", "cafés", "ﬁles", "notes"] {
            XCTAssertEqual(Words.stem(w), Words.characterStem(w), w)
        }
        for w in ["5", "5pm", "x5", "", "٣", "５", "5\u{20E3}", "\u{301}5"] {
            XCTAssertEqual(Token(raw: w, lower: w, after: "", before: "").isNumber, w.first?.isNumber ?? false, w)
        }
        for w in ["5pm", "09:00", "5.30pm", ".5.30pm", "friday", "eod", "１２:００", "٣pm", "12h", "noon"] {
            XCTAssertEqual(DueDates.isClock(w), DueDates.hasClockShape(w), w)
        }
    }

    func testPastTenseShortcutsAgreeWithTheFullTests() {
        let verbs = ["tag", "send", "copy", "fix", "post", "rerun", "do", "set", "ship", "review", "d", ""]
        let words = ["tagged", "taged", "sent", "copied", "fixed", "posted", "reran", "did", "done", "set", "shipped", "reviewed",
                     "tag", "tagging", "shipd", "ed", "d", "", "tagge\u{301}d", "tagged\u{301}", "café", "read", "split", "wrote"]
        for v in verbs {
            for w in words {
                let full = w == v + "ed" || w == v + "d" || (w.hasSuffix("ied") && v.hasSuffix("y") && String(w.dropLast(3)) == String(v.dropLast()))
                    || (w.count > 3 && w.hasSuffix("ed") && String(w.dropLast(3)) == v && w.dropLast(2).last == v.last)
                    || (Verbs.irregularPast[v]?.contains(w) ?? false)
                XCTAssertEqual(Verbs.isPast(w, of: v), full, "\(w) of \(v)")
            }
        }
        for w in words {
            let anyIrregular = Verbs.irregularPast.values.contains { $0.contains(w) }
            XCTAssertEqual(Verbs.allIrregularPast.contains(w), anyIrregular, w)
        }
    }

    func testWordsOfASCIIAndOtherTextMatchTheCharacterByCharacterReading() {
        for s in Self.samples {
            let lower = s.lowercased().replacingOccurrences(of: "'s ", with: " ")
            XCTAssertEqual(Words.all(s), Words.characterRuns(lower), s)
            if lower.isASCIIOnly { XCTAssertEqual(Words.asciiRuns(lower), Words.characterRuns(lower), s) }
        }
    }

    func testMemoGivesTheSameAnswersAndKeepsEachSpellingsBytes() {
        let composed = "Could you check the café menu?", decomposed = "Could you check the cafe\u{301} menu?"
        let outside = Self.samples.map { (Sentences.split($0), Tokenizer.tokens($0), Words.content($0)) }
        TextMemo.during {
            for _ in 0..<2 {
                for (k, s) in Self.samples.enumerated() {
                    XCTAssertEqual(Sentences.split(s), outside[k].0)
                    XCTAssertEqual(Tokenizer.tokens(s), outside[k].1)
                    XCTAssertEqual(Words.content(s), outside[k].2)
                }
            }
            XCTAssertEqual(Array(Sentences.split(composed)[0].utf8), Array(composed.utf8))
            XCTAssertEqual(Array(Sentences.split(decomposed)[0].utf8), Array(decomposed.utf8))
            XCTAssertEqual(Array(Tokenizer.tokens(decomposed)[4].raw.utf8), Array("cafe\u{301}".utf8))
        }
    }

    /// `Token.isAllCaps` as it was before its ASCII path.
    private func allCapsWithoutShortcut(_ raw: String) -> Bool {
        let letters = raw.unicodeScalars.filter { CharacterSet.letters.contains($0) }
        return letters.count >= 2 && raw == raw.uppercased() && raw != raw.lowercased()
    }

    /// `trimming(chars)` gives what Foundation's `trimmingCharacters(in: CharacterSet(charactersIn:))` gives.
    func testTrimmingASetGivesFoundationsAnswer() {
        let texts = ["Final.", " final! ", "...", "", "Ok, that works.", "Thursday it is then!", "«Final»…", "a", " . ! ", "Done deal.!?",
                     "“Quoted.”", "Ça va. ", "tab\t.", "émoji 👍.", "e\u{301}.", ".e\u{301}"]
        for chars in [" .!", ",.!", " .?!", ".!?,;:", " ,", " .!?…"] {
            for t in texts {
                XCTAssertEqual(t.trimming(chars), t.trimmingCharacters(in: CharacterSet(charactersIn: chars)), "\(t.debugDescription) by \(chars)")
            }
        }
    }
}
