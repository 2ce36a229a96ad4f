import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real pseudo-terminal: the child gets the slave side as stdin/stdout/stderr (so
/// isatty(0) is true and libedit runs), the test reads and types on the master side.
final class PseudoTerminal {
    let master: Int32
    let slave: FileHandle
    private let lock = NSLock()
    private var buffer = Data()
    private var reader: Thread?

    init(columns: UInt16 = 120, rows: UInt16 = 40) throws {
        // posix_openpt/grantpt/ptsname need _XOPEN_SOURCE and do not import; the Linux
        // ioctls underneath them do: TIOCSPTLCK (unlock) and TIOCGPTN (slave number).
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard master >= 0, ioctl(master, 0x4004_5431, &unlock) == 0, ioctl(master, 0x8004_5430, &number) == 0 else {
            throw NSError(domain: "pty", code: Int(errno))
        }
        let name = "/dev/pts/\(number)"
        var ws = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &ws)
        let s = open(name, O_RDWR | O_NOCTTY)
        guard s >= 0 else { throw NSError(domain: "pty", code: Int(errno)) }
        slave = FileHandle(fileDescriptor: s, closeOnDealloc: true)
        let fd = master
        let t = Thread { [weak self] in
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n <= 0 { return }
                guard let self else { return }
                self.lock.lock(); self.buffer.append(contentsOf: chunk[0..<n]); self.lock.unlock()
            }
        }
        t.start()
        reader = t
    }

    /// Everything the child wrote so far, escape sequences included.
    var output: String { lock.lock(); defer { lock.unlock() }; return String(decoding: buffer, as: UTF8.self) }

    func type(_ text: String) {
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { write(master, $0.baseAddress, $0.count) }
    }

    deinit { close(master) }
}
