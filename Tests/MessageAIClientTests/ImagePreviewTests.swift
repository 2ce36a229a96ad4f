import XCTest
@testable import MessageAIClient

/// The renderer on its own: which way a terminal gets images, and what a drawing holds.
final class ImagePreviewTests: XCTestCase {
    func testNoDrawingForJSONPipesDumbTerminalsOrOff() {
        let term = ["TERM": "xterm-kitty"]
        XCTAssertEqual(ImagePreview.mode(setting: .on, json: true, environment: term, stdoutIsTerminal: true), .none)
        XCTAssertEqual(ImagePreview.mode(setting: .on, json: false, environment: term, stdoutIsTerminal: false), .none)
        XCTAssertEqual(ImagePreview.mode(setting: .off, json: false, environment: term, stdoutIsTerminal: true), .none)
        XCTAssertEqual(ImagePreview.mode(setting: .on, json: false, environment: ["TERM": "dumb"], stdoutIsTerminal: true), .none)
        XCTAssertEqual(ImagePreview.mode(setting: .blocks, json: false, environment: [:], stdoutIsTerminal: true), .none, "TERM unset")
    }

    func testBlocksWhenForcedOrInsideTmuxAndKittyByItsWindowVariable() {
        XCTAssertEqual(ImagePreview.mode(setting: .blocks, json: false, environment: ["TERM": "xterm-kitty"], stdoutIsTerminal: true), .symbols)
        XCTAssertEqual(ImagePreview.mode(setting: .on, json: false, environment: ["TERM": "xterm-kitty", "TMUX": "/tmp/tmux-0/default,1,0"],
                                         stdoutIsTerminal: true), .symbols)
        XCTAssertEqual(ImagePreview.mode(setting: .on, json: false, environment: ["TERM": "screen-256color"], stdoutIsTerminal: true), .symbols)
        XCTAssertEqual(ImagePreview.mode(setting: .on, json: false, environment: ["TERM": "xterm-256color", "KITTY_WINDOW_ID": "3"],
                                         stdoutIsTerminal: true), .kitty)
    }

    private func imageFile() throws -> String {
        let path = temporaryDirectory("preview-unit") + "/wide.png"
        try TestImage.write(path, width: 400, height: 100)
        return path
    }

    func testBlockArtFitsTheCellsItIsGiven() throws {
        let art = try XCTUnwrap(ImagePreview.render(file: try imageFile(), maxColumns: 20, maxRows: 8, mode: .symbols))
        XCTAssertTrue(art.hasSuffix("\n"))
        let rows = art.dropLast().split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertLessThanOrEqual(rows.count, 8)
        XCTAssertGreaterThan(rows.count, 0)
        for row in rows {
            // Without the colour codes, each row is at most 20 cells of block characters.
            let visible = row.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
            XCTAssertLessThanOrEqual(visible.count, 20, visible)
        }
        XCTAssertTrue(art.unicodeScalars.contains { (0x2580...0x259F).contains($0.value) || $0 == " " })
    }

    func testKittyAndSixelSequences() throws {
        let file = try imageFile()
        let kitty = try XCTUnwrap(ImagePreview.render(file: file, maxColumns: 20, maxRows: 8, mode: .kitty))
        XCTAssertTrue(kitty.hasPrefix("\u{1B}_Ga=T"), String(kitty.prefix(40)).debugDescription)
        XCTAssertNotNil(kitty.range(of: #",c=20,"#), "a 4:1 image 20 columns wide: \(kitty.prefix(60).debugDescription)")
        let sixel = try XCTUnwrap(ImagePreview.render(file: file, maxColumns: 20, maxRows: 8, mode: .sixel))
        XCTAssertNotNil(sixel.range(of: "^\u{1B}P[0-9;]*q", options: .regularExpression), String(sixel.prefix(30)).debugDescription)
        XCTAssertTrue(sixel.hasSuffix("\u{1B}\\\n"))
    }

    func testNotAnImageDrawsNothing() throws {
        let path = temporaryDirectory("preview-unit") + "/notes.txt"
        try "just text".write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertNil(ImagePreview.render(file: path, maxColumns: 20, maxRows: 8, mode: .symbols))
        XCTAssertNil(ImagePreview.render(jpeg: Array("not a jpeg".utf8), mode: .kitty))
        XCTAssertNil(ImagePreview.render(jpeg: [], mode: .kitty))
    }
}
